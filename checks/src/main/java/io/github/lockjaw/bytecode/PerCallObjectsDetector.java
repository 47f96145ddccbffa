package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.NonReportingDetector;
import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.ba.ClassContext;
import edu.umd.cs.findbugs.bcel.OpcodeStackDetector;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.generic.Type;

/**
 * First pass for {@link PerCallObjects}: in every class that declares or is a nested class, notes
 * which classes it creates and which it hands out. Reports nothing.
 */
public class PerCallObjectsDetector extends OpcodeStackDetector implements NonReportingDetector {
  private PerCallObjects facts;

  public PerCallObjectsDetector(BugReporter bugReporter) {}

  @Override
  public void visitClassContext(ClassContext classContext) {
    JavaClass javaClass = classContext.getJavaClass();
    if (NestedClasses.of(javaClass).isEmpty()) {
      return; // only private member classes and local classes can be per-call objects
    }
    facts = PerCallObjects.current();
    try {
      super.visitClassContext(classContext);
    } catch (RuntimeException e) {
      // no facts from this class: none of the classes it names is a per-call object
      NestedClasses.of(javaClass).forEach(nested -> facts.published(nested.className()));
    }
  }

  /**
   * Whether {@code javaClass} is a private member class or a local class, by its own entry in its
   * InnerClasses attribute: the only classes whose every creation lockjaw can see.
   */
  static boolean isPrivateNestedOrLocal(JavaClass javaClass) {
    return NestedClasses.of(javaClass).stream()
        .anyMatch(
            nested ->
                nested.className().equals(javaClass.getClassName())
                    && (nested.isLocal() || nested.isPrivate()));
  }

  @Override
  public void sawOpcode(int seen) {
    switch (seen) {
      case Const.NEW -> facts.created(getDottedClassConstantOperand());
      case Const.PUTFIELD, Const.PUTSTATIC, Const.ARETURN, Const.AASTORE, Const.ATHROW ->
          publishTop(1);
      case Const.INVOKEVIRTUAL,
          Const.INVOKEINTERFACE,
          Const.INVOKESPECIAL,
          Const.INVOKESTATIC,
          Const.INVOKEDYNAMIC ->
          publishArguments(getSigConstantOperand());
      default -> {
        // loads, stores to locals, field reads and calls on the object keep it where it is
      }
    }
  }

  /** The values the instruction consumes from the top of the stack leave the method. */
  private void publishTop(int count) {
    for (int i = 0; i < count && i < stack.getStackDepth(); i++) {
      publish(stack.getStackItem(i));
    }
  }

  /** The arguments of a call (not its receiver) are handed to the callee. */
  private void publishArguments(String signature) {
    publishTop(Type.getArgumentTypes(signature).length);
  }

  private void publish(OpcodeStack.Item item) {
    String signature = item.getSignature();
    if (signature != null && signature.startsWith("L") && signature.endsWith(";")) {
      facts.published(signature.substring(1, signature.length() - 1).replace('/', '.'));
    }
  }
}
