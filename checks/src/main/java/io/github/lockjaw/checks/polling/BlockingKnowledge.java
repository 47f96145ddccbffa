package io.github.lockjaw.checks.polling;

import com.google.errorprone.VisitorState;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import io.github.lockjaw.checks.support.KnownSymbols;
import io.github.lockjaw.knowledge.ApiCatalog;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.KnowledgeIndex.MethodEntry;
import java.util.Optional;

/**
 * The busy-wait check's view of {@code blocking.txt}: which queries report a state another thread
 * changes (and which call blocks until it does), which calls pause a spin, and which block.
 * Matching goes through {@link KnownSymbols}.
 */
public final class BlockingKnowledge {

  private BlockingKnowledge() {}

  /** What a busy-wait polls: {@code Thread#isAlive}, {@code Future#isDone}, ... */
  public record PolledState(ApiCatalog.Entry entry) {
    /** How the answer reads while still waiting: {@code true}, {@code false} or {@code nonzero}. */
    public String busy() {
      return attribute("busy").orElse("true");
    }

    /** The untimed blocking call, e.g. {@code join()}, with types named fully. */
    public String await() {
      return attribute("await").orElse("").replace("+", ", ");
    }

    /** The untimed blocking call as a message shows it, with simple type names. */
    public String awaitForDisplay() {
      String text = await();
      Optional<String> qualify = qualifiedType();
      if (qualify.isPresent()) {
        String type = qualify.get();
        text = text.replace(type, type.substring(type.lastIndexOf('.') + 1));
      }
      return text;
    }

    /** The name of the blocking method, e.g. {@code join}. */
    public String awaitMethodName() {
      String await = await();
      int paren = await.indexOf('(');
      return paren < 0 ? await : await.substring(0, paren);
    }

    /** Whether the blocking call takes no arguments. */
    public boolean awaitTakesNoArguments() {
      return await().endsWith("()") && await().indexOf('(') == await().length() - 2;
    }

    /** The bounded blocking call, e.g. {@code join(millis)}. */
    public String timed() {
      return attribute("timed").orElse(await()).replace("+", ", ");
    }

    /** The checked exception the blocking call adds, if any. */
    public Optional<String> throwsType() {
      return attribute("throws");
    }

    /** The awaited event in words, e.g. "the thread ends". */
    public String event() {
      return attribute("event").orElse("the state changes").replace('-', ' ');
    }

    /** A type that {@link #await()} names fully and a fix must import. */
    public Optional<String> qualifiedType() {
      return attribute("qualify");
    }

    /** Whether the blocking call also reports the outcome (and so throws differently). */
    public boolean reportsOutcome() {
      return entry.hasAttribute("reports-outcome");
    }

    /** The polled method, e.g. {@code isAlive}. */
    public String method() {
      return entry.method();
    }

    /** The simple name of the type that declares the polled method, e.g. {@code Thread}. */
    public String typeSimpleName() {
      String type = entry.type();
      return type.substring(type.lastIndexOf('.') + 1);
    }

    private Optional<String> attribute(String key) {
      return entry.attribute(key);
    }
  }

  /** The spin-call entry (sleep, yield, onSpinWait, parkNanos) for a method, if it is one. */
  public static Optional<ApiCatalog.Entry> spinCall(MethodSymbol method, VisitorState state) {
    return declaredIn(Kind.Blocking.SPIN_CALL.index(), method, state);
  }

  /**
   * Whether a call with {@code argumentCount} arguments parks the thread until something happens.
   */
  public static boolean isBlockingCall(MethodSymbol method, int argumentCount, VisitorState state) {
    if (method == null) {
      return false;
    }
    for (MethodEntry entry :
        Kind.Blocking.BLOCKING_CALL.index().named(method.getSimpleName().toString())) {
      if (!KnownSymbols.isMethodOfSubtype(method, entry, state)) {
        continue;
      }
      int minArgs;
      try {
        minArgs = Integer.parseInt(entry.attribute("min-args").orElse("0"));
      } catch (NumberFormatException e) {
        minArgs = 0;
      }
      if (argumentCount >= minArgs) {
        return true;
      }
    }
    return false;
  }

  /** The entry of the index whose method is {@code method} or one of its type's subtypes. */
  private static Optional<ApiCatalog.Entry> declaredIn(
      KnowledgeIndex index, MethodSymbol method, VisitorState state) {
    return KnownSymbols.entry(KnownSymbols.methodOfSubtype(index, method, state));
  }
}
