package io.github.lockjaw.common;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A small, defensive reader of one class file: its methods (access flags, name, descriptor) and,
 * for each method with code, the methods it calls with {@code invokevirtual}. It reads no more than
 * that, needs no library (javac reads a superclass from a jar only as a signature, and the checks
 * jar may bring nothing to a user's annotation processor path but itself), and never throws: a file
 * it cannot read, truncated or of an unknown shape, gives {@link Optional#empty()}.
 */
public final class ClassFileMethods {
  /** {@code ACC_STATIC}. */
  public static final int STATIC = 0x0008;

  /** {@code ACC_SYNCHRONIZED}. */
  public static final int SYNCHRONIZED = 0x0020;

  /** {@code ACC_BRIDGE}. */
  public static final int BRIDGE = 0x0040;

  /** {@code ACC_ABSTRACT}. */
  public static final int ABSTRACT = 0x0400;

  /** {@code ACC_SYNTHETIC}. */
  public static final int SYNTHETIC = 0x1000;

  /** Larger class files are not read (no real class comes near). */
  private static final int MAX_BYTES = 16 << 20;

  private static final int INVOKEVIRTUAL = 182;

  /**
   * A method that a method calls.
   *
   * @param owner the class named in the call, internal form ({@code org/framework/EventHandler})
   * @param name its name
   * @param descriptor its descriptor, e.g. {@code (Ljava/lang/Object;)V}
   */
  public record Call(String owner, String name, String descriptor) {}

  /**
   * One method of the class.
   *
   * @param access its access flags
   * @param name its name
   * @param descriptor its descriptor
   * @param virtualCalls the {@code invokevirtual} calls in its code, in code order (empty without
   *     code)
   */
  public record MethodInfo(int access, String name, String descriptor, List<Call> virtualCalls) {
    public boolean is(int flag) {
      return (access & flag) != 0;
    }

    /** How many parameters the descriptor declares. */
    public int parameterCount() {
      return ClassFileMethods.parameterCount(descriptor);
    }

    public boolean returnsVoid() {
      return descriptor.endsWith(")V");
    }
  }

  private ClassFileMethods() {}

  /** The methods of a class file read from a stream (closed by the caller), or empty. */
  public static Optional<List<MethodInfo>> read(InputStream in) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      int total = 0;
      for (int n; (n = in.read(buffer)) > 0; ) {
        total += n;
        if (total > MAX_BYTES) {
          return Optional.empty();
        }
        out.write(buffer, 0, n);
      }
      return read(out.toByteArray());
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // unreadable: no evidence
    }
  }

  /** The methods of a class file, or empty when it is not one this reader understands. */
  public static Optional<List<MethodInfo>> read(byte[] bytes) {
    try {
      return Optional.of(parse(ByteBuffer.wrap(bytes)));
    } catch (RuntimeException e) {
      // BufferUnderflowException, a bad index, an unknown tag or opcode: not a class file we read
      return Optional.empty();
    }
  }

  private static List<MethodInfo> parse(ByteBuffer in) {
    if (in.getInt() != 0xCAFEBABE) {
      throw new IllegalArgumentException("not a class file");
    }
    in.getShort(); // minor
    in.getShort(); // major
    int count = u2(in);
    Object[] pool = new Object[count]; // String for Utf8, int[] for references
    for (int i = 1; i < count; i++) {
      int tag = in.get() & 0xff;
      switch (tag) {
        case 1 -> {
          byte[] utf = new byte[u2(in)];
          in.get(utf);
          pool[i] = modifiedUtf8(utf);
        }
        case 3, 4 -> in.getInt();
        case 5, 6 -> {
          in.getLong();
          i++; // takes two entries
        }
        case 7, 8, 16, 19, 20 -> pool[i] = new int[] {tag, u2(in)};
        case 9, 10, 11, 12, 17, 18 -> pool[i] = new int[] {tag, u2(in), u2(in)};
        case 15 -> {
          in.get();
          in.getShort();
        }
        default -> throw new IllegalArgumentException("constant pool tag " + tag);
      }
    }
    in.getShort(); // access
    in.getShort(); // this class
    in.getShort(); // super class
    skip(in, 2 * u2(in)); // interfaces
    int fields = u2(in);
    for (int i = 0; i < fields; i++) {
      skip(in, 6);
      skipAttributes(in);
    }
    int methods = u2(in);
    List<MethodInfo> result = new ArrayList<>(methods);
    for (int i = 0; i < methods; i++) {
      int access = u2(in);
      String name = utf8(pool, u2(in));
      String descriptor = utf8(pool, u2(in));
      List<Call> calls = List.of();
      int attributes = u2(in);
      for (int a = 0; a < attributes; a++) {
        String attribute = utf8(pool, u2(in));
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
          throw new IllegalArgumentException("attribute length");
        }
        if (attribute.equals("Code")) {
          ByteBuffer code = in.slice(in.position(), length);
          calls = virtualCalls(code, pool);
        }
        skip(in, length);
      }
      result.add(new MethodInfo(access, name, descriptor, calls));
    }
    return List.copyOf(result);
  }

  private static List<Call> virtualCalls(ByteBuffer attribute, Object[] pool) {
    attribute.getShort(); // max stack
    attribute.getShort(); // max locals
    int length = attribute.getInt();
    if (length < 0 || length > attribute.remaining()) {
      throw new IllegalArgumentException("code length");
    }
    ByteBuffer code = attribute.slice(attribute.position(), length);
    List<Call> calls = new ArrayList<>();
    int pc = 0;
    while (pc < length) {
      int opcode = code.get(pc) & 0xff;
      if (opcode == INVOKEVIRTUAL) {
        int[] ref = reference(pool, code.getShort(pc + 1) & 0xffff, 10);
        int[] owner = reference(pool, ref[1], 7);
        int[] nameAndType = reference(pool, ref[2], 12);
        calls.add(
            new Call(utf8(pool, owner[1]), utf8(pool, nameAndType[1]), utf8(pool, nameAndType[2])));
      }
      pc += instructionLength(code, pc, opcode);
    }
    return List.copyOf(calls);
  }

  /** The length of the instruction at {@code pc}, operands included. */
  private static int instructionLength(ByteBuffer code, int pc, int opcode) {
    if (opcode <= 15 || (opcode >= 26 && opcode <= 53) || (opcode >= 59 && opcode <= 131)) {
      return 1;
    }
    if ((opcode >= 133 && opcode <= 152) || (opcode >= 172 && opcode <= 177)) {
      return 1;
    }
    return switch (opcode) {
      case 16, 18, 21, 22, 23, 24, 25, 54, 55, 56, 57, 58, 169, 188 -> 2;
      case 17, 19, 20, 132, 178, 179, 180, 181, 182, 183, 184, 187, 189, 192, 193, 198, 199 -> 3;
      case 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168 -> 3;
      case 190, 191, 194, 195 -> 1;
      case 197 -> 4;
      case 185, 186, 200, 201 -> 5;
      case 196 -> (code.get(pc + 1) & 0xff) == 132 ? 6 : 4; // wide iinc, wide load/store
      case 170 -> {
        int operands = (pc + 4) & ~3; // padded to a multiple of four from the code's start
        int low = code.getInt(operands + 4);
        int high = code.getInt(operands + 8);
        if (high < low) {
          throw new IllegalArgumentException("tableswitch");
        }
        yield operands - pc + 12 + 4 * (high - low + 1);
      }
      case 171 -> {
        int operands = (pc + 4) & ~3;
        int pairs = code.getInt(operands + 4);
        if (pairs < 0) {
          throw new IllegalArgumentException("lookupswitch");
        }
        yield operands - pc + 8 + 8 * pairs;
      }
      default -> throw new IllegalArgumentException("opcode " + opcode);
    };
  }

  /** The number of parameters a method descriptor declares. */
  public static int parameterCount(String descriptor) {
    int count = 0;
    int i = descriptor.indexOf('(') + 1;
    while (i > 0 && i < descriptor.length() && descriptor.charAt(i) != ')') {
      char c = descriptor.charAt(i);
      if (c == '[') {
        i++;
        continue;
      }
      i = c == 'L' ? descriptor.indexOf(';', i) + 1 : i + 1;
      if (i == 0) {
        return count;
      }
      count++;
    }
    return count;
  }

  private static int[] reference(Object[] pool, int index, int tag) {
    if (!(pool[index] instanceof int[] entry) || entry[0] != tag) {
      throw new IllegalArgumentException("constant " + index);
    }
    return entry;
  }

  private static String utf8(Object[] pool, int index) {
    if (!(pool[index] instanceof String text)) {
      throw new IllegalArgumentException("constant " + index);
    }
    return text;
  }

  private static int u2(ByteBuffer in) {
    return in.getShort() & 0xffff;
  }

  private static void skip(ByteBuffer in, int bytes) {
    in.position(in.position() + bytes);
  }

  private static void skipAttributes(ByteBuffer in) {
    int attributes = u2(in);
    for (int a = 0; a < attributes; a++) {
      in.getShort();
      int length = in.getInt();
      if (length < 0) {
        throw new IllegalArgumentException("attribute length");
      }
      skip(in, length);
    }
  }

  /** Class files store names in modified UTF-8; names of methods and classes decode the same. */
  private static String modifiedUtf8(byte[] bytes) {
    StringBuilder text = new StringBuilder(bytes.length);
    for (int i = 0; i < bytes.length; ) {
      int b = bytes[i++] & 0xff;
      if (b < 0x80) {
        text.append((char) b);
      } else if ((b & 0xe0) == 0xc0) {
        text.append((char) (((b & 0x1f) << 6) | (bytes[i++] & 0x3f)));
      } else {
        text.append((char) (((b & 0x0f) << 12) | ((bytes[i++] & 0x3f) << 6) | (bytes[i++] & 0x3f)));
      }
    }
    return text.toString();
  }
}
