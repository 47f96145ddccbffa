package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.Priorities;
import edu.umd.cs.findbugs.ba.ClassContext;
import edu.umd.cs.findbugs.ba.XClass;
import edu.umd.cs.findbugs.ba.XMethod;
import edu.umd.cs.findbugs.classfile.ClassDescriptor;
import io.github.lockjaw.knowledge.JavaNames;
import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.Method;

/**
 * Bytecode counterpart of the {@code PerRequestHttpClient} check: an HTTP client created in a
 * method that sends a request through it and then lets it go (not stored in a field, not returned,
 * not handed to code that may keep it); a {@code Connection: close} request header set from
 * constants; {@code System.setProperty("http.keepAlive", "false")}. What creates a client, what
 * sends and what closes is {@code http-clients.txt}.
 */
@OpcodeStack.CustomUserValue
public class PerRequestHttpClientDetector extends LockjawDetector {
  private static final List<String> CLIENT_CONSTRUCTORS =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_CONSTRUCTOR).internalTypeNames();
  private static final List<String> BUILDER_CONSTRUCTORS =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_BUILDER_START).internalTypeNames();
  private static final KnowledgeIndex FACTORIES =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_FACTORY);
  private static final KnowledgeIndex BUILDER_STARTS =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_BUILDER_START);
  private static final KnowledgeIndex BUILDS =
      KnowledgeIndex.of(Kind.HttpClients.CLIENT_BUILD_METHOD);
  private static final KnowledgeIndex MANAGER_SETTERS =
      KnowledgeIndex.of(Kind.HttpClients.CONNECTION_MANAGER_SETTER);
  private static final KnowledgeIndex SHARED_MANAGER_CONFIGS =
      KnowledgeIndex.of(Kind.HttpClients.SHARED_MANAGER_CONFIG);
  private static final KnowledgeIndex REQUESTS = KnowledgeIndex.of(Kind.HttpClients.REQUEST_METHOD);
  private static final KnowledgeIndex CLOSES = KnowledgeIndex.of(Kind.HttpClients.CLOSE_METHOD);
  private static final KnowledgeIndex CLOSE_HELPERS =
      KnowledgeIndex.of(Kind.HttpClients.CLOSE_HELPER);
  private static final KnowledgeIndex HEADERS = KnowledgeIndex.of(Kind.HttpClients.HEADER_METHOD);

  /** Header calls count only on requests: a server answering 'Connection: close' is protocol. */
  private static final List<String> REQUEST_TYPES =
      KnowledgeIndex.of(Kind.HttpClients.REQUEST_TYPE).internalTypeNames();

  private static final KnowledgeIndex PROPERTY_SETTERS =
      KnowledgeIndex.of(Kind.HttpClients.SYSTEM_PROPERTY_SETTER);
  private static final List<String> KEEP_ALIVE_PROPERTIES =
      Kind.HttpClients.KEEP_ALIVE_PROPERTY.values();
  private static final KnowledgeIndex ONE_SHOT =
      KnowledgeIndex.of(Kind.EntryPoints.ONE_SHOT_METHOD, Kind.EntryPoints.SET_UP_METHOD);
  private static final Set<String> SET_UP_ANNOTATIONS =
      Set.copyOf(Kind.EntryPoints.SET_UP_ANNOTATION.values());
  private static final Set<String> TEST_ANNOTATIONS = testAnnotations();
  private static final Set<String> MENTIONS = mentions();

  private static Set<String> testAnnotations() {
    Set<String> names = new HashSet<>();
    names.addAll(Kind.EntryPoints.TEST_ANNOTATION.values());
    names.addAll(Kind.EntryPoints.TEST_CLASS_ANNOTATION.values());
    return Set.copyOf(names);
  }

  /** Constant-pool strings without which a class cannot hold this pattern. */
  private static Set<String> mentions() {
    Set<String> words = new HashSet<>(CLIENT_CONSTRUCTORS);
    words.addAll(BUILDER_CONSTRUCTORS);
    for (KnowledgeIndex.MethodEntry entry :
        KnowledgeIndex.of(Kind.HttpClients.CLIENT_FACTORY, Kind.HttpClients.CLIENT_BUILDER_START)
            .methods()) {
      words.add(entry.internalOwner());
    }
    words.addAll(KEEP_ALIVE_PROPERTIES);
    words.add("Connection");
    return Set.copyOf(words);
  }

  /** The value a creation puts on the stack: a client, or a builder that will build one. */
  private record Tag(int site, boolean builder) {}

  private static final class Site {
    final int pc;
    final String creation;
    boolean client;
    boolean used;
    boolean closed;
    boolean passed;
    boolean escaped;

    /** setConnectionManager(a field or parameter) on the builder */
    boolean managerFromOutside;

    /** setConnectionManagerShared(true) on the builder */
    boolean managerMarkedShared;

    /** the field of this class the new client was stored in, unconditionally; else null */
    String fieldClass;

    String fieldName;
    boolean sentThroughField;

    Site(int pc, String creation) {
      this.pc = pc;
      this.creation = creation;
    }
  }

  private final List<Site> sites = new ArrayList<>();
  private final List<int[]> backEdges = new ArrayList<>();
  private Tag pendingTag;
  private boolean testClass;

  /** whether a branch has been seen so far in the method: what follows may be conditional */
  private boolean branched;

  private int firstHandler;

  public PerRequestHttpClientDetector(BugReporter bugReporter) {
    super(bugReporter);
  }

  @Override
  public void visitClassContext(ClassContext classContext) {
    JavaClass javaClass = classContext.getJavaClass();
    if (!constantPoolMentions(javaClass, MENTIONS)) {
      return;
    }
    testClass = false;
    super.visitClassContext(classContext);
  }

  @Override
  public void visit(JavaClass javaClass) {
    testClass = hasAnnotation(getXClass(), TEST_ANNOTATIONS) || anyTestMethod();
    super.visit(javaClass);
  }

  private boolean anyTestMethod() {
    XClass xClass = getXClass();
    if (xClass == null) {
      return false;
    }
    for (XMethod method : xClass.getXMethods()) {
      for (var annotation : method.getAnnotationDescriptors()) {
        if (TEST_ANNOTATIONS.contains(annotation.getDottedClassName())) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean hasAnnotation(XClass xClass, Set<String> names) {
    if (xClass == null) {
      return false;
    }
    for (ClassDescriptor annotation : xClass.getAnnotationDescriptors()) {
      if (names.contains(annotation.getDottedClassName())) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void visit(Code code) {
    if (testClass) {
      return;
    }
    sites.clear();
    backEdges.clear();
    pendingTag = null;
    branched = false;
    firstHandler = Integer.MAX_VALUE;
    if (code.getExceptionTable() != null) {
      for (var handler : code.getExceptionTable()) {
        firstHandler = Math.min(firstHandler, handler.getHandlerPC());
      }
    }
    super.visit(code);
    reportSites(getMethod());
  }

  @Override
  public void afterOpcode(int seen) {
    super.afterOpcode(seen);
    if (pendingTag != null && stack.getStackDepth() > 0) {
      stack.getStackItem(0).setUserValue(pendingTag);
    }
    pendingTag = null;
  }

  @Override
  public void sawOpcode(int seen) {
    switch (seen) {
      case Const.NEW -> sawNew();
      case Const.INVOKEVIRTUAL, Const.INVOKEINTERFACE, Const.INVOKESTATIC, Const.INVOKESPECIAL ->
          sawCall(seen);
      case Const.INVOKEDYNAMIC -> {
        int args = getNumberArguments(getSigConstantOperand());
        for (int i = 0; i < args && i < stack.getStackDepth(); i++) {
          escape(stack.getStackItem(i));
        }
      }
      case Const.PUTFIELD, Const.PUTSTATIC -> {
        if (stack.getStackDepth() > 0 && !storedInOwnField(seen)) {
          escape(stack.getStackItem(0));
        }
      }
      case Const.ARETURN, Const.AASTORE -> {
        if (stack.getStackDepth() > 0) {
          escape(stack.getStackItem(0));
        }
      }
      case Const.TABLESWITCH, Const.LOOKUPSWITCH -> branched = true;
      case Const.GOTO,
          Const.GOTO_W,
          Const.IFEQ,
          Const.IFNE,
          Const.IFLT,
          Const.IFGE,
          Const.IFGT,
          Const.IFLE,
          Const.IF_ICMPEQ,
          Const.IF_ICMPNE,
          Const.IF_ICMPLT,
          Const.IF_ICMPGE,
          Const.IF_ICMPGT,
          Const.IF_ICMPLE,
          Const.IF_ACMPEQ,
          Const.IF_ACMPNE,
          Const.IFNULL,
          Const.IFNONNULL -> {
        branched = true;
        if (getBranchTarget() <= getPC()) {
          backEdges.add(new int[] {getBranchTarget(), getPC()});
        }
      }
      default -> {
        // nothing to note
      }
    }
  }

  /**
   * A new client stored, on every call, in a field of this class ({@code this.client = ...} with no
   * branch before it and outside any exception handler): noted on its site instead of an escape.
   */
  private boolean storedInOwnField(int seen) {
    Tag tag = tagOf(stack.getStackItem(0));
    if (tag == null
        || tag.builder()
        || branched
        || getPC() >= firstHandler
        || !getClassConstantOperand().equals(getClassName())) {
      return false;
    }
    if (seen == Const.PUTFIELD
        && (getMethod().isStatic()
            || stack.getStackDepth() < 2
            || stack.getStackItem(1).getRegisterNumber() != 0)) {
      return false;
    }
    Site site = sites.get(tag.site());
    if (site.fieldName != null) {
      return false;
    }
    site.fieldClass = getClassConstantOperand();
    site.fieldName = getNameConstantOperand();
    return true;
  }

  private void sawNew() {
    String type = getClassConstantOperand();
    if (CLIENT_CONSTRUCTORS.contains(type)) {
      pendingTag = newSite("new " + JavaNames.simpleName(type) + "()", false);
    } else if (BUILDER_CONSTRUCTORS.contains(type)) {
      pendingTag = newSite("new " + JavaNames.simpleName(type) + "()...build()", true);
    }
  }

  private Tag newSite(String creation, boolean builder) {
    Site site = new Site(getPC(), creation);
    site.client = !builder;
    sites.add(site);
    return new Tag(sites.size() - 1, builder);
  }

  private static Tag tagOf(OpcodeStack.Item item) {
    return item.getUserValue() instanceof Tag tag ? tag : null;
  }

  private void escape(OpcodeStack.Item item) {
    Tag tag = tagOf(item);
    if (tag != null) {
      sites.get(tag.site()).escaped = true;
    }
  }

  private void sawCall(int seen) {
    String owner = getClassConstantOperand();
    String name = getNameConstantOperand();
    String signature = getSigConstantOperand();
    int args = getNumberArguments(signature);
    if (stack.getStackDepth() < args) {
      return;
    }
    if (seen == Const.INVOKESTATIC) {
      Optional<KnowledgeIndex.MethodEntry> factory = match(FACTORIES, owner, name);
      if (factory.isPresent()) {
        pendingTag = newSite(factory.get().display().replace("()", "(...)"), false);
      } else {
        match(BUILDER_STARTS, owner, name)
            .ifPresent(
                start ->
                    pendingTag =
                        newSite(start.display().replace("()", "(...)") + "...build()", true));
      }
      sawHeaderOrProperty(owner, name, args);
    } else if (!name.equals("<init>") && stack.getStackDepth() > args) {
      sawReceiver(tagOf(stack.getStackItem(args)), owner, name, signature);
      sawRequestThroughField(stack.getStackItem(args), owner, name);
      sawHeaderOrProperty(owner, name, args);
    }
    boolean closeHelper =
        seen == Const.INVOKESTATIC && match(CLOSE_HELPERS, owner, name).isPresent();
    for (int i = 0; i < args; i++) {
      Tag tag = tagOf(stack.getStackItem(i));
      if (tag != null && !tag.builder()) {
        Site site = sites.get(tag.site());
        if (closeHelper) {
          site.closed = true;
        } else {
          site.passed = true;
        }
      } else if (tag != null) {
        sites.get(tag.site()).escaped = true; // a builder handed on: lockjaw loses track
      }
    }
  }

  private void sawReceiver(Tag tag, String owner, String name, String signature) {
    if (tag == null) {
      return;
    }
    Site site = sites.get(tag.site());
    if (tag.builder()) {
      if (match(SHARED_MANAGER_CONFIGS, owner, name).isPresent()
          && stack.getStackDepth() > 0
          && Integer.valueOf(1).equals(stack.getStackItem(0).getConstant())) {
        site.managerMarkedShared = true;
      } else if (match(MANAGER_SETTERS, owner, name).isPresent()
          && stack.getStackDepth() > 0
          && madeElsewhere(stack.getStackItem(0))) {
        site.managerFromOutside = true;
      }
      if (match(BUILDS, owner, name).isPresent()) {
        site.client = true;
        pendingTag = new Tag(tag.site(), false);
      } else if (signature.endsWith(";")) {
        pendingTag = tag; // a fluent builder call returns the builder
      }
      return;
    }
    if (match(REQUESTS, owner, name).isPresent()) {
      site.used = true;
    } else if (match(CLOSES, owner, name).isPresent()) {
      site.closed = true;
    }
  }

  /** A field load, or a parameter of this method: a connection manager not made in this call. */
  private boolean madeElsewhere(OpcodeStack.Item item) {
    if (item.getXField() != null) {
      return true;
    }
    int register = item.getRegisterNumber();
    Method method = getMethod();
    int parameterSlots = method.isStatic() ? 0 : 1;
    for (var type : method.getArgumentTypes()) {
      parameterSlots += type.getSize();
    }
    return register >= (method.isStatic() ? 0 : 1) && register < parameterSlots;
  }

  /** {@code this.client.execute(...)} after a site stored a new client in {@code client}. */
  private void sawRequestThroughField(OpcodeStack.Item receiver, String owner, String name) {
    var field = receiver.getXField();
    if (field == null || match(REQUESTS, owner, name).isEmpty()) {
      return;
    }
    for (Site site : sites) {
      if (site.fieldName != null
          && site.fieldName.equals(field.getName())
          && site.fieldClass.equals(field.getClassDescriptor().getClassName())) {
        site.sentThroughField = true;
      }
    }
  }

  private void sawHeaderOrProperty(String owner, String name, int args) {
    if (args != 2) {
      return;
    }
    Object first = stack.getStackItem(1).getConstant();
    Object second = stack.getStackItem(0).getConstant();
    if (!(first instanceof String key) || !(second instanceof String value)) {
      return;
    }
    if (key.equalsIgnoreCase("Connection")
        && value.trim().equalsIgnoreCase("close")
        && match(HEADERS, owner, name).isPresent()
        && matchType(REQUEST_TYPES, owner).isPresent()) {
      report(
          LockjawBugType.PER_REQUEST_HTTP_CLIENT,
          Priorities.NORMAL_PRIORITY,
          getMethod(),
          getPC(),
          display(getMethod())
              + " sets 'Connection: close' on its request: the server"
              + " closes the connection after the response, so every request pays a new TCP"
              + " (and TLS) handshake. Leave the header out and let the client keep the"
              + " connection alive and reuse it.");
    } else if (KEEP_ALIVE_PROPERTIES.contains(key)
        && value.trim().equalsIgnoreCase("false")
        && match(PROPERTY_SETTERS, owner, name).isPresent()) {
      report(
          LockjawBugType.PER_REQUEST_HTTP_CLIENT,
          Priorities.NORMAL_PRIORITY,
          getMethod(),
          getPC(),
          display(getMethod())
              + " sets "
              + key
              + "=false: it turns HTTP keep-alive off"
              + " for the whole JVM, so every HttpURLConnection request opens a new connection."
              + " Remove the setting.");
    }
  }

  private void reportSites(Method method) {
    if (sites.isEmpty()) {
      return;
    }
    boolean oneShot = isOneShot(method);
    for (Site site : sites) {
      if (site.managerFromOutside && site.managerMarkedShared) {
        continue; // built per call on a shared connection manager: the connections are pooled there
      }
      if (site.fieldName != null) {
        if (site.client && site.sentThroughField && !site.escaped && !oneShot) {
          report(
              LockjawBugType.PER_REQUEST_HTTP_CLIENT,
              Priorities.NORMAL_PRIORITY,
              method,
              site.pc,
              display(method)
                  + " stores a new HTTP client ("
                  + site.creation
                  + ") in the field '"
                  + site.fieldName
                  + "' on every call and sends its request through it: the field"
                  + " looks shared but holds a per-request client, so every request pays a new TCP and"
                  + " TLS handshake and the previous client is dropped with its connections open."
                  + " Create the client once (in the constructor) and only use it here.");
        }
        continue;
      }
      if (!site.client || !site.used || site.escaped || (site.passed && !site.closed)) {
        continue;
      }
      boolean inLoop = false;
      for (int[] loop : backEdges) {
        if (site.pc >= loop[0] && site.pc <= loop[1]) {
          inLoop = true;
        }
      }
      if (oneShot && !inLoop) {
        continue;
      }
      String message =
          display(method)
              + " creates a new HTTP client ("
              + site.creation
              + ")"
              + (inLoop ? " on every pass of a loop" : "")
              + ", sends a request through it and lets it"
              + " go: every request pays a new TCP and TLS handshake, and each abandoned connection"
              + " stays open on the server until its keep-alive timeout. Create one client, keep it"
              + " in a field shared by all requests, and close it when the application stops.";
      report(
          LockjawBugType.PER_REQUEST_HTTP_CLIENT,
          Priorities.NORMAL_PRIORITY,
          method,
          site.pc,
          message);
    }
  }

  /** main(String[]), a one-shot or set-up method: creating a client there is set-up. */
  private boolean isOneShot(Method method) {
    if (method.getName().startsWith("<")) {
      return true;
    }
    if (method.isStatic()
        && method.getName().equals("main")
        && method.getSignature().equals("([Ljava/lang/String;)V")) {
      return true;
    }
    XMethod xMethod = getXMethod();
    if (xMethod != null) {
      for (ClassDescriptor annotation : xMethod.getAnnotationDescriptors()) {
        if (SET_UP_ANNOTATIONS.contains(annotation.getDottedClassName())) {
          return true;
        }
      }
    }
    for (KnowledgeIndex.MethodEntry entry : ONE_SHOT.candidates(method.getName())) {
      if (isSubtype(getClassName(), entry.internalOwner())) {
        return true;
      }
    }
    return false;
  }
}
