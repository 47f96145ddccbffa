package io.github.lockjaw.model.source;

import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import io.github.lockjaw.model.MethodRef;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the source front-end found each fact: the tree of every method, operation and region, so
 * that a check reports at the right place and a fix rewrites the right code.
 */
public final class Origins {
  private final Map<MethodRef, TreePath> methods = new HashMap<>();
  private final Map<MethodRef, List<TreePath>> ops = new HashMap<>();
  private final Map<MethodRef, List<TreePath>> regions = new HashMap<>();
  private final Map<Tree, MethodRef> byTree = new IdentityHashMap<>();

  void method(MethodRef ref, TreePath path, List<TreePath> opPaths, List<TreePath> regionPaths) {
    methods.put(ref, path);
    byTree.putIfAbsent(path.getLeaf(), ref);
    ops.put(ref, List.copyOf(opPaths));
    regions.put(ref, List.copyOf(regionPaths));
  }

  void addAll(Origins other) {
    methods.putAll(other.methods);
    ops.putAll(other.ops);
    regions.putAll(other.regions);
    byTree.putAll(other.byTree);
  }

  /**
   * The method a declaration is: a method tree, a lambda, or a class tree (its static initialiser);
   * {@code null} when the front-end read no code for it.
   */
  public MethodRef refOf(Tree declaration) {
    return byTree.get(declaration);
  }

  /**
   * The method's declaration: a method tree, a lambda, or the class for {@code <clinit>} and for a
   * default constructor; {@code null} when the method was not read from these sources.
   */
  public TreePath method(MethodRef ref) {
    return methods.get(ref);
  }

  /** The tree of an operation (a call, a creation, a field access, a return). */
  public TreePath op(MethodRef ref, int index) {
    List<TreePath> paths = ops.get(ref);
    return paths == null || index >= paths.size() ? null : paths.get(index);
  }

  /** The {@code synchronized} block or method of a region. */
  public TreePath region(MethodRef ref, int id) {
    List<TreePath> paths = regions.get(ref);
    return paths == null || id >= paths.size() ? null : paths.get(id);
  }

  public boolean knows(MethodRef ref) {
    return methods.containsKey(ref);
  }
}
