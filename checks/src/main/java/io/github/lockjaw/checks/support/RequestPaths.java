package io.github.lockjaw.checks.support;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The methods of one compilation unit that run per request: the request entry points ({@link
 * EntryPoints#isRequestEntry}) and, transitively, the methods of the same file they call.
 */
public final class RequestPaths {
  private final Map<MethodSymbol, MethodTree> entryOf;

  private RequestPaths(Map<MethodSymbol, MethodTree> entryOf) {
    this.entryOf = entryOf;
  }

  /** The request paths of the unit {@code state} is in. */
  public static RequestPaths of(VisitorState state) {
    Map<MethodSymbol, MethodTree> declared =
        MoreTrees.declaredMethods(state.getPath().getCompilationUnit());
    Map<MethodSymbol, MethodTree> entryOf = new LinkedHashMap<>();
    Deque<MethodSymbol> work = new ArrayDeque<>();
    for (Map.Entry<MethodSymbol, MethodTree> method : declared.entrySet()) {
      if (EntryPoints.isRequestEntry(method.getValue(), state)) {
        entryOf.put(method.getKey(), method.getValue());
        work.add(method.getKey());
      }
    }
    while (!work.isEmpty()) {
      MethodSymbol current = work.poll();
      MethodTree entry = entryOf.get(current);
      MethodTree body = declared.get(current);
      new TreeScanner<Void, Void>() {
        @Override
        public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
          follow(ASTHelpers.getSymbol(node));
          return super.visitMethodInvocation(node, null);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree node, Void unused) {
          Symbol symbol = ASTHelpers.getSymbol(node);
          if (symbol instanceof MethodSymbol method) {
            follow(method);
          }
          return super.visitMemberReference(node, null);
        }

        private void follow(MethodSymbol callee) {
          if (callee != null && declared.containsKey(callee) && !entryOf.containsKey(callee)) {
            entryOf.put(callee, entry);
            work.add(callee);
          }
        }
      }.scan((Tree) body, null);
    }
    return new RequestPaths(entryOf);
  }

  /** The request entry point that {@code method} runs under, or null when it runs on none. */
  public MethodTree entryOf(MethodTree method) {
    MethodSymbol symbol = ASTHelpers.getSymbol(method);
    return symbol == null ? null : entryOf.get(symbol);
  }
}
