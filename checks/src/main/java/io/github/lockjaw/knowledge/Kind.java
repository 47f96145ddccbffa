package io.github.lockjaw.knowledge;

import java.util.List;

/**
 * One kind of entry in one knowledge file: {@code polled-state} in {@code blocking.txt}, {@code
 * client-factory} in {@code http-clients.txt}, ... Every kind the checks and detectors read is a
 * constant here, grouped by file, so a kind name is spelled once and a test can tell that each kind
 * in a file is read and each constant has entries.
 */
public record Kind(String catalog, String name) {

  /** The entries of this kind, in file order. */
  public List<ApiCatalog.Entry> entries() {
    return ApiCatalog.named(catalog).entries(name);
  }

  /** The entries of this kind indexed for matching ({@link KnowledgeIndex}, built once). */
  public KnowledgeIndex index() {
    return KnowledgeIndex.of(this);
  }

  /** The values of this kind, in file order. */
  public List<String> values() {
    return ApiCatalog.named(catalog).values(name);
  }

  @Override
  public String toString() {
    return catalog + ".txt " + name;
  }

  /** The kinds of {@code blocking.txt}. */
  public static final class Blocking {
    public static final String CATALOG = "blocking";

    public static final Kind POLLED_STATE = new Kind(CATALOG, "polled-state");
    public static final Kind SPIN_CALL = new Kind(CATALOG, "spin-call");
    public static final Kind WATCHDOG_INTERVAL_MILLIS =
        new Kind(CATALOG, "watchdog-interval-millis");
    public static final Kind BLOCKING_CALL = new Kind(CATALOG, "blocking-call");
    public static final Kind NON_BLOCKING_TYPE = new Kind(CATALOG, "non-blocking-type");
    public static final Kind NON_BLOCKING_METHOD = new Kind(CATALOG, "non-blocking-method");
    public static final Kind NON_BLOCKING_CONSTRUCTOR_PACKAGE =
        new Kind(CATALOG, "non-blocking-constructor-package");
    public static final Kind STREAM_MATCH = new Kind(CATALOG, "stream-match");
    public static final Kind IN_MEMORY_STREAM = new Kind(CATALOG, "in-memory-stream");

    private Blocking() {}
  }

  /** The kinds of {@code entry-points.txt}. */
  public static final class EntryPoints {
    public static final String CATALOG = "entry-points";

    public static final Kind ONE_SHOT_METHOD = new Kind(CATALOG, "one-shot-method");
    public static final Kind ONE_SHOT_CLASS_ANNOTATION =
        new Kind(CATALOG, "one-shot-class-annotation");
    public static final Kind SET_UP_ANNOTATION = new Kind(CATALOG, "set-up-annotation");
    public static final Kind SET_UP_METHOD = new Kind(CATALOG, "set-up-method");
    public static final Kind TEST_ANNOTATION = new Kind(CATALOG, "test-annotation");
    public static final Kind TEST_CLASS_ANNOTATION = new Kind(CATALOG, "test-class-annotation");
    public static final Kind TEST_SOURCE_PATH = new Kind(CATALOG, "test-source-path");
    public static final Kind LIFECYCLE_METHOD = new Kind(CATALOG, "lifecycle-method");
    public static final Kind LIFECYCLE_PHASE = new Kind(CATALOG, "lifecycle-phase");
    public static final Kind TEAR_DOWN_ANNOTATION = new Kind(CATALOG, "tear-down-annotation");
    public static final Kind CONFIGURATION_SETTER = new Kind(CATALOG, "configuration-setter");
    public static final Kind START_UP_METHOD = new Kind(CATALOG, "start-up-method");
    public static final Kind REQUEST_ENTRY_ANNOTATION =
        new Kind(CATALOG, "request-entry-annotation");
    public static final Kind REQUEST_ENTRY_METHOD = new Kind(CATALOG, "request-entry-method");
    public static final Kind CONFIGURATION_PREFIX = new Kind(CATALOG, "configuration-prefix");
    public static final Kind PER_CALL_PREFIX = new Kind(CATALOG, "per-call-prefix");
    public static final Kind BACKGROUND_ENTRY_ANNOTATION =
        new Kind(CATALOG, "background-entry-annotation");
    public static final Kind BACKGROUND_ENTRY_METHOD = new Kind(CATALOG, "background-entry-method");
    public static final Kind ADMIN_ENTRY_ANNOTATION = new Kind(CATALOG, "admin-entry-annotation");
    public static final Kind ADMIN_INTERFACE_SUFFIX = new Kind(CATALOG, "admin-interface-suffix");
    public static final Kind TASK_HAND_OFF = new Kind(CATALOG, "task-hand-off");
    public static final Kind VIRTUAL_THREAD_SOURCE = new Kind(CATALOG, "virtual-thread-source");
    public static final Kind VIRTUAL_THREAD_START = new Kind(CATALOG, "virtual-thread-start");
    public static final Kind VIRTUAL_THREAD_DERIVATION =
        new Kind(CATALOG, "virtual-thread-derivation");
    public static final Kind VIRTUAL_REQUEST_EXECUTOR =
        new Kind(CATALOG, "virtual-request-executor");
    public static final Kind VIRTUAL_REQUEST_SWITCH = new Kind(CATALOG, "virtual-request-switch");
    public static final Kind VIRTUAL_THREAD_PROPERTY = new Kind(CATALOG, "virtual-thread-property");
    public static final Kind VIRTUAL_THREAD_RELEASE = new Kind(CATALOG, "virtual-thread-release");

    private EntryPoints() {}
  }

  /** The kinds of {@code http-clients.txt}. */
  public static final class HttpClients {
    public static final String CATALOG = "http-clients";

    public static final Kind CLIENT_CONSTRUCTOR = new Kind(CATALOG, "client-constructor");
    public static final Kind CLIENT_FACTORY = new Kind(CATALOG, "client-factory");
    public static final Kind CLIENT_BUILDER_START = new Kind(CATALOG, "client-builder-start");
    public static final Kind CLIENT_BUILD_METHOD = new Kind(CATALOG, "client-build-method");
    public static final Kind STATELESS_CONFIG = new Kind(CATALOG, "stateless-config");
    public static final Kind CONNECTION_MANAGER_SETTER =
        new Kind(CATALOG, "connection-manager-setter");
    public static final Kind SHARED_MANAGER_CONFIG = new Kind(CATALOG, "shared-manager-config");
    public static final Kind CONNECTION_POOL_TYPE = new Kind(CATALOG, "connection-pool-type");
    public static final Kind REQUEST_METHOD = new Kind(CATALOG, "request-method");
    public static final Kind CLIENT_FLUENT_METHOD = new Kind(CATALOG, "client-fluent-method");
    public static final Kind CLOSE_METHOD = new Kind(CATALOG, "close-method");
    public static final Kind CLOSE_HELPER = new Kind(CATALOG, "close-helper");
    public static final Kind TEARDOWN_METHOD = new Kind(CATALOG, "teardown-method");
    public static final Kind HOISTABLE_ARGUMENT_FACTORY =
        new Kind(CATALOG, "hoistable-argument-factory");
    public static final Kind URL_CONNECTION_TYPE = new Kind(CATALOG, "url-connection-type");
    public static final Kind URL_CONNECTION_OPEN = new Kind(CATALOG, "url-connection-open");
    public static final Kind DISCONNECT_METHOD = new Kind(CATALOG, "disconnect-method");
    public static final Kind HEADER_METHOD = new Kind(CATALOG, "header-method");
    public static final Kind REQUEST_TYPE = new Kind(CATALOG, "request-type");
    public static final Kind KEEP_ALIVE_PROPERTY = new Kind(CATALOG, "keep-alive-property");
    public static final Kind SYSTEM_PROPERTY_SETTER = new Kind(CATALOG, "system-property-setter");
    public static final Kind SOCKET_CONNECTION = new Kind(CATALOG, "socket-connection");
    public static final Kind SOCKET_EXCHANGE = new Kind(CATALOG, "socket-exchange");

    private HttpClients() {}
  }

  /** The kinds of {@code io.txt}. */
  public static final class Io {
    public static final String CATALOG = "io";

    public static final Kind NETWORK_CALL = new Kind(CATALOG, "network-call");
    public static final Kind CONNECTING_CONSTRUCTOR = new Kind(CATALOG, "connecting-constructor");
    public static final Kind THREAD_SAFE_TYPE = new Kind(CATALOG, "thread-safe-type");
    public static final Kind RESOURCE_TYPE = new Kind(CATALOG, "resource-type");

    private Io() {}
  }

  /** The kinds of {@code jdbc.txt}. */
  public static final class Jdbc {
    public static final String CATALOG = "jdbc";

    public static final Kind CONNECTION_SOURCE = new Kind(CATALOG, "connection-source");
    public static final Kind DATABASE_CALL = new Kind(CATALOG, "database-call");
    public static final Kind RESOURCE_TYPE = new Kind(CATALOG, "resource-type");
    public static final Kind THREAD_SAFE_TYPE = new Kind(CATALOG, "thread-safe-type");
    public static final Kind POOL_TYPE = new Kind(CATALOG, "pool-type");
    public static final Kind CONNECTION_ACQUISITION = new Kind(CATALOG, "connection-acquisition");

    private Jdbc() {}
  }

  /** The kinds of {@code contention.txt}. */
  public static final class Contention {
    public static final String CATALOG = "contention";

    public static final Kind RUNTIME_PACKAGE = new Kind(CATALOG, "runtime-package");
    public static final Kind LOCK_BLOCKER = new Kind(CATALOG, "lock-blocker");
    public static final Kind NOT_A_LOCK_WAIT = new Kind(CATALOG, "not-a-lock-wait");
    public static final Kind LOCK_EVENT = new Kind(CATALOG, "lock-event");
    public static final Kind HOLDER_SAMPLE_EVENT = new Kind(CATALOG, "holder-sample-event");
    public static final Kind JVM_INFORMATION_EVENT = new Kind(CATALOG, "jvm-information-event");
    public static final Kind HOLDER_ACTIVITY = new Kind(CATALOG, "holder-activity");
    public static final Kind IDLE_WAIT = new Kind(CATALOG, "idle-wait");
    public static final Kind WORK_QUEUE_METHOD = new Kind(CATALOG, "work-queue-method");
    public static final Kind LOCK_ACQUIRE_FRAME = new Kind(CATALOG, "lock-acquire-frame");
    public static final Kind SLEEP_FRAME = new Kind(CATALOG, "sleep-frame");
    public static final Kind SLEEP_EVIDENCE_CHECK = new Kind(CATALOG, "sleep-evidence-check");

    private Contention() {}
  }

  /** The kinds of {@code known-fixes.txt}. */
  public static final class KnownFixes {
    public static final String CATALOG = "known-fixes";

    public static final Kind KNOWN_FIX = new Kind(CATALOG, "known-fix");

    private KnownFixes() {}
  }

  /** The kinds of {@code maps.txt}. */
  public static final class Maps {
    public static final String CATALOG = "maps";

    public static final Kind COARSELY_LOCKED_TYPE = new Kind(CATALOG, "coarsely-locked-type");
    public static final Kind COARSELY_LOCKING_FACTORY =
        new Kind(CATALOG, "coarsely-locking-factory");
    public static final Kind PLAIN_TYPE = new Kind(CATALOG, "plain-type");
    public static final Kind CONCURRENT_TYPE = new Kind(CATALOG, "concurrent-type");
    public static final Kind MAP_LIKE_TYPE = new Kind(CATALOG, "map-like-type");
    public static final Kind REPLACEMENT = new Kind(CATALOG, "replacement");
    public static final Kind CHECK_METHOD = new Kind(CATALOG, "check-method");
    public static final Kind ACT_METHOD = new Kind(CATALOG, "act-method");
    public static final Kind ATOMIC_METHOD = new Kind(CATALOG, "atomic-method");
    public static final Kind COMPUTED_VALUE = new Kind(CATALOG, "computed-value");
    public static final Kind REPLACEMENT_SUPERTYPE = new Kind(CATALOG, "replacement-supertype");

    /** Calls whose value is the calling thread's own: a map keyed by it is a per-thread map. */
    public static final Kind PER_THREAD_KEY = new Kind(CATALOG, "per-thread-key");

    public static final Kind KEY_ACCESSOR = new Kind(CATALOG, "key-accessor");
    public static final Kind KEY_ACCESSOR_EXCLUSION = new Kind(CATALOG, "key-accessor-exclusion");

    private Maps() {}
  }

  /** The kinds of {@code pools.txt}. */
  public static final class Pools {
    public static final String CATALOG = "pools";

    /** Types in the role of a pool's object factory. */
    public static final Kind OBJECT_FACTORY = new Kind(CATALOG, "object-factory");

    /** What a pool asks of its object factory: one type#method entry per factory type. */
    public static final Kind OBJECT_FACTORY_CALL = new Kind(CATALOG, "object-factory-call");

    /** Types in the role of a pool's connection factory. */
    public static final Kind CONNECTION_FACTORY = new Kind(CATALOG, "connection-factory");

    /** What a pool asks of its connection factory: one type#method entry per factory type. */
    public static final Kind CONNECTION_FACTORY_CALL = new Kind(CATALOG, "connection-factory-call");

    private Pools() {}
  }

  /** The kinds of {@code thread-safety.txt}. */
  public static final class ThreadSafety {
    public static final String CATALOG = "thread-safety";

    public static final Kind IMMUTABLE_TYPE = new Kind(CATALOG, "immutable-type");
    public static final Kind THREAD_SAFE_TYPE = new Kind(CATALOG, "thread-safe-type");

    private ThreadSafety() {}
  }

  /** The kinds of {@code reflection.txt}. */
  public static final class Reflection {
    public static final String CATALOG = "reflection";

    public static final Kind SHARED_REFLECTIVE_TYPE = new Kind(CATALOG, "shared-reflective-type");
    public static final Kind REFLECTIVE_CALL = new Kind(CATALOG, "reflective-call");

    private Reflection() {}
  }

  /** The kinds of {@code read-mostly.txt}. */
  public static final class ReadMostly {
    public static final String CATALOG = "read-mostly";

    public static final Kind READ_CALL = new Kind(CATALOG, "read-call");
    public static final Kind COPY_CALL = new Kind(CATALOG, "copy-call");
    public static final Kind COPY_CONSTRUCTOR_PACKAGE =
        new Kind(CATALOG, "copy-constructor-package");
    public static final Kind CONTAINER_TYPE = new Kind(CATALOG, "container-type");
    public static final Kind PUBLISHING_WRITER_PREFIX =
        new Kind(CATALOG, "publishing-writer-prefix");
    public static final Kind ACCESS_ORDERED_TYPE = new Kind(CATALOG, "access-ordered-type");

    private ReadMostly() {}
  }

  /** The kinds of {@code resources.txt}. */
  public static final class Resources {
    public static final String CATALOG = "resources";

    public static final Kind RESOURCE_LOOKUP = new Kind(CATALOG, "resource-lookup");
    public static final Kind ARCHIVE_TYPE = new Kind(CATALOG, "archive-type");

    private Resources() {}
  }

  /** The kinds of {@code heavyweight.txt}. */
  public static final class Heavyweight {
    public static final String CATALOG = "heavyweight";

    public static final Kind COSTLY_CREATION = new Kind(CATALOG, "costly-creation");
    public static final Kind SHARED_USE = new Kind(CATALOG, "shared-use");
    public static final Kind FLUENT_CONFIGURATION = new Kind(CATALOG, "fluent-configuration");
    public static final Kind MEMOISING_CALL = new Kind(CATALOG, "memoising-call");
    public static final Kind MEMOISING_OVERRIDE = new Kind(CATALOG, "memoising-override");
    public static final Kind GENERIC_INTERCEPTION = new Kind(CATALOG, "generic-interception");

    private Heavyweight() {}
  }

  /** The kinds of {@code statistics.txt}. */
  public static final class Statistics {
    public static final String CATALOG = "statistics";

    public static final Kind PURE_CALL = new Kind(CATALOG, "pure-call");
    public static final Kind LOCAL_ACCESSOR_PREFIX = new Kind(CATALOG, "local-accessor-prefix");
    public static final Kind COUNTER_MAP_READ = new Kind(CATALOG, "counter-map-read");
    public static final Kind COUNTER_MAP_WRITE = new Kind(CATALOG, "counter-map-write");
    public static final Kind REPLACEMENT = new Kind(CATALOG, "replacement");
    public static final Kind EXTREMUM_CALL = new Kind(CATALOG, "extremum-call");
    public static final Kind MONITOR_SIGNAL_CALL = new Kind(CATALOG, "monitor-signal-call");

    private Statistics() {}
  }
}
