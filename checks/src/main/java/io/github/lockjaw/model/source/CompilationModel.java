package io.github.lockjaw.model.source;

import com.google.errorprone.VisitorState;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symtab;
import com.sun.tools.javac.code.Types;
import com.sun.tools.javac.comp.AttrContext;
import com.sun.tools.javac.comp.Enter;
import com.sun.tools.javac.comp.Env;
import com.sun.tools.javac.tree.JCTree.JCCompilationUnit;
import com.sun.tools.javac.util.Context;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Reachability;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The model of one javac compilation: every compilation unit javac has attributed (with {@code
 * -XDcompilePolicy=simple}, all of them before any check runs), read by the source front-end, and
 * the classes on the class path they call into, read on demand by the bytecode front-end. Built
 * once per compilation, the first time a lockjaw check asks, and shared by all of them.
 */
public final class CompilationModel {
  private static final Context.Key<CompilationModel> KEY = new Context.Key<>();

  private final Program program;
  private final Origins origins = new Origins();
  private final Effects effects;
  private final Map<CompilationUnitTree, List<ClassFacts>> byUnit = new IdentityHashMap<>();
  private Reachability reachability;
  private final QueryContext queries;
  private final Map<MethodRef, List<MethodFacts>> lambdasIn = new HashMap<>();
  private final Map<Tree, Map<String, ModelFinding>> reported = new IdentityHashMap<>();

  private CompilationModel(Context context) {
    JavacLibrary library = new JavacLibrary(context);
    program = new Program(library, library);
    Types types = Types.instance(context);
    for (JCCompilationUnit unit : attributedUnits(context)) {
      try {
        SourceFacts.Unit read = SourceFacts.read(unit, types);
        program.addAll(read.classes());
        origins.addAll(read.origins());
        byUnit.put(unit, read.classes());
      } catch (RuntimeException e) {
        Resilience.recordIfStrict("the model of " + unit.getSourceFile().getName(), e);
      }
    }
    effects = new Effects(program);
    int release = JavacRelease.of(context);
    queries =
        new QueryContext(program, effects, this::reachability)
            .withTargetRelease(className -> release);
    for (ClassFacts c : program.classes()) {
      for (MethodFacts m : c.methods()) {
        if (m.enclosing() != null) {
          lambdasIn.computeIfAbsent(m.enclosing(), k -> new ArrayList<>()).add(m);
        }
      }
    }
  }

  /**
   * Remembers the finding a check reported at a tree, so that a tool that runs the checks (the
   * engine's analyzer) can give the finding its request path and effect chain.
   */
  public void reported(Tree tree, ModelFinding finding) {
    reported.computeIfAbsent(tree, t -> new HashMap<>()).put(finding.check(), finding);
  }

  /**
   * The model finding behind a diagnostic of {@code check} at {@code tree}, in the compilation of
   * {@code context}; empty when there is none (a check that is not a query, or no model yet).
   */
  public static Optional<ModelFinding> reportedAt(Context context, Tree tree, String check) {
    CompilationModel model = context.get(KEY);
    if (model == null || tree == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(model.reported.getOrDefault(tree, Map.of()).get(check));
  }

  /**
   * One step of a finding's evidence: what happens, and where (a source path or class-file
   * location, and a line; empty and 0 when unknown).
   */
  public record TraceLine(String text, String file, int line) {}

  /** A finding's evidence: the request path (entry point first) and the effect chain. */
  public record Trace(List<TraceLine> requestPath, List<TraceLine> effectChain) {}

  /** The evidence of the finding of {@code check} reported at {@code tree}, if it is a query's. */
  public static Optional<Trace> traceAt(Context context, Tree tree, String check) {
    CompilationModel model = context.get(KEY);
    return reportedAt(context, tree, check).map(finding -> model.trace(finding));
  }

  private Trace trace(ModelFinding finding) {
    List<TraceLine> path = new ArrayList<>();
    for (String step : finding.requestPath()) {
      path.add(new TraceLine(step, "", 0));
    }
    List<TraceLine> chain = new ArrayList<>();
    if (finding.effect() != null) {
      for (Effects.Step step : finding.effect().chain()) {
        ClassFacts owner = program.classFacts(step.in().owner());
        chain.add(
            new TraceLine(
                step.in().display() + "() calls " + step.call(),
                owner == null ? "" : owner.origin(),
                step.line()));
      }
    }
    return new Trace(path, chain);
  }

  /** What the queries read. */
  public QueryContext queries() {
    return queries;
  }

  /**
   * A method and the lambda bodies written in it (and in those), the code a check looks at when
   * javac visits the method's declaration.
   */
  public List<MethodFacts> withLambdas(MethodRef ref) {
    List<MethodFacts> all = new ArrayList<>();
    MethodFacts method = program.method(ref);
    if (method == null) {
      return all;
    }
    all.add(method);
    for (int i = 0; i < all.size(); i++) {
      all.addAll(lambdasIn.getOrDefault(all.get(i).ref(), List.of()));
    }
    return all;
  }

  /** The model of the compilation {@code state} belongs to. */
  public static CompilationModel of(VisitorState state) {
    Context context = state.context;
    CompilationModel model = context.get(KEY);
    if (model == null) {
      model = new CompilationModel(context);
      context.put(KEY, model);
    }
    return model;
  }

  private static Set<JCCompilationUnit> attributedUnits(Context context) {
    Enter enter = Enter.instance(context);
    Set<JCCompilationUnit> units = new LinkedHashSet<>();
    List<ClassSymbol> all = new ArrayList<>();
    Symtab.instance(context).getAllClasses().forEach(all::add);
    for (ClassSymbol symbol : all) {
      if (symbol.sourcefile == null) {
        continue;
      }
      Env<AttrContext> env = enter.getEnv(symbol);
      if (env != null && env.toplevel != null) {
        units.add(env.toplevel);
      }
    }
    return units;
  }

  public Program program() {
    return program;
  }

  public Origins origins() {
    return origins;
  }

  public Effects effects() {
    return effects;
  }

  /** Reachability over the whole compilation, computed the first time a check asks. */
  public Reachability reachability() {
    if (reachability == null) {
      reachability = new Reachability(program, effects);
    }
    return reachability;
  }

  /** The classes read from one compilation unit (empty when it could not be read). */
  public List<ClassFacts> classesOf(CompilationUnitTree unit) {
    return byUnit.getOrDefault(unit, List.of());
  }
}
