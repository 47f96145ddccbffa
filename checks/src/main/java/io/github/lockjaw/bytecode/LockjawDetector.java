package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.SourceLineAnnotation;
import edu.umd.cs.findbugs.StringAnnotation;
import edu.umd.cs.findbugs.ba.AnalysisContext;
import edu.umd.cs.findbugs.ba.ClassContext;
import edu.umd.cs.findbugs.ba.XClass;
import edu.umd.cs.findbugs.ba.XMethod;
import edu.umd.cs.findbugs.bcel.OpcodeStackDetector;
import edu.umd.cs.findbugs.classfile.ClassDescriptor;
import edu.umd.cs.findbugs.classfile.DescriptorFactory;
import edu.umd.cs.findbugs.classfile.Global;
import edu.umd.cs.findbugs.classfile.ICodeBase;
import edu.umd.cs.findbugs.classfile.analysis.ClassData;
import io.github.lockjaw.common.Resilience;
import io.github.lockjaw.knowledge.JavaNames;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.CodeException;
import org.apache.bcel.classfile.Constant;
import org.apache.bcel.classfile.ConstantPool;
import org.apache.bcel.classfile.ConstantUtf8;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.Method;
import org.apache.bcel.generic.GotoInstruction;
import org.apache.bcel.generic.InstructionHandle;
import org.apache.bcel.generic.InstructionList;

/**
 * What lockjaw's SpotBugs detectors share: subtype questions against the knowledge files, monitor
 * regions of a method, and reporting with a message and advice (two string annotations, in that
 * order, after the class and method; see messages.xml).
 */
abstract class LockjawDetector extends OpcodeStackDetector {
  private static final Map<String, JarIdentity> JARS = new ConcurrentHashMap<>();

  protected final BugReporter bugReporter;
  private final Map<String, Boolean> subtypes = new HashMap<>();
  private final Map<String, Boolean> declared = new HashMap<>();
  private JarIdentity currentJar;

  LockjawDetector(BugReporter bugReporter) {
    this.bugReporter = bugReporter;
  }

  @Override
  public void visitClassContext(ClassContext classContext) {
    currentJar = null;
    try {
      super.visitClassContext(classContext);
    } catch (RuntimeException e) {
      // a surprise shape is no finding; the analysis of the other classes goes on
      skipped(classContext.getJavaClass(), e);
    }
  }

  /**
   * Records that this detector gave up on a class after an unexpected exception: logged for
   * SpotBugs' error summary, and remembered for the tests under {@code -Dlockjaw.strict=true} (see
   * {@link Resilience#swallowed()}).
   */
  protected final void skipped(JavaClass javaClass, RuntimeException e) {
    Resilience.recordIfStrict(getClass().getSimpleName() + " on " + javaClass.getClassName(), e);
    bugReporter.logError(
        "lockjaw: " + getClass().getSimpleName() + " skipped " + javaClass.getClassName(), e);
  }

  /**
   * Whether the class's constant pool holds any of these strings (a method or type name): a cheap
   * test that lets a detector skip classes that cannot hold its pattern.
   */
  protected static boolean constantPoolMentions(JavaClass javaClass, Set<String> words) {
    ConstantPool pool = javaClass.getConstantPool();
    for (int i = 1; i < pool.getLength(); i++) {
      Constant constant = pool.getConstant(i);
      if (constant instanceof ConstantUtf8 utf8 && words.contains(utf8.getBytes())) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code owner} is {@code type} or a subtype of it (internal names). */
  protected boolean isSubtype(String owner, String type) {
    if (owner.equals(type)) {
      return true;
    }
    if (owner.startsWith("[")) {
      return false;
    }
    String key = owner + ' ' + type;
    Boolean known = subtypes.get(key);
    if (known != null) {
      return known;
    }
    boolean result;
    try {
      ClassDescriptor sub = DescriptorFactory.createClassDescriptor(owner);
      ClassDescriptor sup = DescriptorFactory.createClassDescriptor(type);
      result = AnalysisContext.currentAnalysisContext().getSubtypes2().isSubtype(sub, sup);
    } catch (ClassNotFoundException | RuntimeException e) {
      result = false; // a class that is not on the classpath is no evidence
    }
    subtypes.put(key, result);
    return result;
  }

  /** The first entry of {@code set} that the call {@code owner.name} is or overrides. */
  protected Optional<KnowledgeIndex.MethodEntry> match(
      KnowledgeIndex set, String owner, String name) {
    for (KnowledgeIndex.MethodEntry entry : set.candidates(name)) {
      if (isSubtype(owner, entry.internalOwner())
          && (!entry.isWildcard() || declares(entry.internalOwner(), name))) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  /** Whether {@code type} itself declares a method {@code name} (for {@code type#*} entries). */
  private boolean declares(String type, String name) {
    String key = type + '#' + name;
    Boolean known = declared.get(key);
    if (known == null) {
      known = false;
      try {
        XClass xClass =
            Global.getAnalysisCache()
                .getClassAnalysis(XClass.class, DescriptorFactory.createClassDescriptor(type));
        for (XMethod method : xClass.getXMethods()) {
          if (method.getName().equals(name)) {
            known = true;
            break;
          }
        }
      } catch (Exception e) {
        known = false; // a type that is not on the class path declares nothing lockjaw can see
      }
      declared.put(key, known);
    }
    return known;
  }

  /** The first type of {@code types} that {@code owner} is or extends. */
  protected Optional<String> matchType(List<String> types, String owner) {
    for (String type : types) {
      if (isSubtype(owner, type)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /** The jar (or directory) the class being visited was read from. */
  protected JarIdentity currentJar() {
    if (currentJar == null) {
      currentJar = jarOf(getThisClass().getClassName());
    }
    return currentJar;
  }

  /** The jar (or directory) SpotBugs read a class (binary name) from. */
  static JarIdentity jarOf(String className) {
    String path;
    try {
      ClassDescriptor descriptor =
          DescriptorFactory.createClassDescriptor(className.replace('.', '/'));
      ClassData data = Global.getAnalysisCache().getClassAnalysis(ClassData.class, descriptor);
      ICodeBase codeBase = data.getCodeBaseEntry().getCodeBase();
      path = codeBase.getPathName();
    } catch (Exception e) {
      path = null;
    }
    return path == null
        ? new JarIdentity(null, "", "", "")
        : JARS.computeIfAbsent(path, p -> JarIdentity.of(Path.of(p)));
  }

  /** Reports a finding in {@code method} of the visited class at {@code pc} (or -1). */
  protected void report(LockjawBugType type, int priority, Method method, int pc, String message) {
    JavaClass javaClass = getThisClass();
    String advice = type.advice(currentJar(), javaClass.getClassName());
    BugInstance bug =
        new BugInstance(this, type.bugType(), priority).addClassAndMethod(javaClass, method);
    bug.addString(message).describe(StringAnnotation.STRING_MESSAGE);
    bug.addString(advice).describe(StringAnnotation.STRING_MESSAGE);
    if (pc >= 0) {
      SourceLineAnnotation line =
          SourceLineAnnotation.fromVisitedInstruction(getClassContext(), method, pc);
      bug.addSourceLine(line);
    }
    bugReporter.reportBug(bug);
  }

  /** Readable name of a method: {@code GenericObjectPool.borrowObject()}. */
  protected String display(Method method) {
    return JavaNames.simpleName(getClassName()) + "." + displayName(method.getName()) + "()";
  }

  protected static String displayName(String methodName) {
    return methodName.equals("<init>") ? "constructor" : methodName;
  }

  /** A cheap first test: a synchronized method, or a monitorenter byte in some code. */
  protected static boolean mayLock(JavaClass javaClass) {
    for (Method method : javaClass.getMethods()) {
      if (method.isSynchronized()
          || (method.getCode() != null && containsMonitorEnter(method.getCode()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the code may contain a monitorenter: a byte scan, so an operand byte can say yes where
   * there is none (costing only time), never no where there is one.
   */
  protected static boolean containsMonitorEnter(Code code) {
    for (byte b : code.getCode()) {
      if ((b & 0xff) == Const.MONITORENTER) {
        return true;
      }
    }
    return false;
  }

  /** The instructions [start, end) a monitor taken at {@code enterPc} covers. */
  protected static List<int[]> monitorRegion(Code code, int enterPc) {
    List<int[]> ranges = new ArrayList<>();
    CodeException[] table = code.getExceptionTable();
    int handler = -1;
    if (table != null) {
      for (CodeException entry : table) {
        if (entry.getCatchType() == 0 && entry.getStartPC() == enterPc + 1) {
          handler = entry.getHandlerPC();
          break;
        }
      }
      if (handler >= 0) {
        for (CodeException entry : table) {
          if (entry.getCatchType() == 0
              && entry.getHandlerPC() == handler
              && entry.getStartPC() < handler
              && entry.getStartPC() > enterPc) {
            ranges.add(new int[] {entry.getStartPC(), entry.getEndPC()});
          }
        }
      }
    }
    if (ranges.isEmpty()) {
      // no handler (an unusual compiler): up to the first monitorexit
      byte[] bytes = code.getCode();
      int end = bytes.length;
      for (int pc = enterPc + 1; pc < bytes.length; pc++) {
        if ((bytes[pc] & 0xff) == Const.MONITOREXIT) {
          end = pc; // byte scan: may stop early inside an operand, so only narrows the region
          break;
        }
      }
      ranges.add(new int[] {enterPc + 1, end});
    }
    return ranges;
  }

  /**
   * Whether {@code pc} lies in the code of a {@code catch} clause: from a typed handler's start to
   * the target of the {@code goto} by which the protected code skips its handlers. Code there runs
   * when something failed (an interrupted wait, an exception), not on every call. False when the
   * extent of a handler cannot be told.
   */
  protected static boolean inCatchClause(Code code, int pc) {
    CodeException[] table = code.getExceptionTable();
    if (table == null) {
      return false;
    }
    byte[] bytes = code.getCode();
    for (CodeException entry : table) {
      int handler = entry.getHandlerPC();
      if (entry.getCatchType() == 0 || pc < handler) {
        continue;
      }
      int end = gotoTargetBefore(bytes, handler);
      if (end > handler && pc < end) {
        return true;
      }
    }
    return false;
  }

  /** The forward target of a {@code goto} that ends just before {@code pc}, or -1. */
  private static int gotoTargetBefore(byte[] bytes, int pc) {
    InstructionList instructions;
    try {
      instructions = new InstructionList(bytes);
    } catch (RuntimeException e) {
      return -1;
    }
    for (InstructionHandle handle : instructions.getInstructionHandles()) {
      InstructionHandle next = handle.getNext();
      if (next != null
          && next.getPosition() == pc
          && handle.getInstruction() instanceof GotoInstruction jump) {
        int target = jump.getTarget().getPosition();
        return target > pc ? target : -1;
      }
    }
    return -1;
  }

  protected static boolean inRanges(List<int[]> ranges, int pc) {
    for (int[] range : ranges) {
      if (pc >= range[0] && pc < range[1]) {
        return true;
      }
    }
    return false;
  }
}
