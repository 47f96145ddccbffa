package io.github.lockjaw.model.source;

import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.code.Types;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodRef;
import java.lang.reflect.Modifier;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * javac symbols and types named the way class files name them: binary names ({@code flatname}),
 * erased JVM descriptors, and the qualifying type javac writes into a call instruction.
 */
final class JavacNames {
  private final Types types;

  /*
   * Names and descriptors of the symbols read so far, each built once: javac's names decode to a new
   * String on every toString(), and a descriptor walks the erased type. One String per symbol also
   * keeps the model's MethodRef and FieldRef hashing and comparing cheap (a String caches its hash).
   */
  private final Map<Symbol, String> binaryNames = new IdentityHashMap<>();
  private final Map<Symbol, String> simpleNames = new IdentityHashMap<>();
  private final Map<Symbol, String> symbolDescriptors = new IdentityHashMap<>();

  JavacNames(Types types) {
    this.types = types;
  }

  Types types() {
    return types;
  }

  /** The binary name of a class: {@code a.b.Outer$Inner}, {@code a.b.Outer$1}. */
  static String binaryName(Symbol.TypeSymbol symbol) {
    return symbol instanceof ClassSymbol c ? c.flatName().toString() : symbol.toString();
  }

  /** The erased JVM descriptor of a type. */
  String descriptor(Type type) {
    Type erased = types.erasure(type);
    StringBuilder out = new StringBuilder();
    append(erased, out);
    return out.toString();
  }

  private void append(Type type, StringBuilder out) {
    switch (type.getTag()) {
      case BOOLEAN -> out.append('Z');
      case BYTE -> out.append('B');
      case CHAR -> out.append('C');
      case SHORT -> out.append('S');
      case INT -> out.append('I');
      case LONG -> out.append('J');
      case FLOAT -> out.append('F');
      case DOUBLE -> out.append('D');
      case VOID -> out.append('V');
      case ARRAY -> {
        out.append('[');
        append(types.erasure(types.elemtype(type)), out);
      }
      case METHOD -> {
        out.append('(');
        for (Type parameter : type.getParameterTypes()) {
          append(types.erasure(parameter), out);
        }
        out.append(')');
        append(types.erasure(type.getReturnType()), out);
      }
      case CLASS -> out.append('L').append(binaryName(type.tsym).replace('.', '/')).append(';');
      case TYPEVAR -> append(types.erasure(type), out);
      default -> out.append("Ljava/lang/Object;");
    }
  }

  /** The binary name of a type, as {@link io.github.lockjaw.model.Descriptors} writes it. */
  String typeName(Type type) {
    if (type == null) {
      return "";
    }
    Type erased = types.erasure(type);
    if (erased.getTag() == TypeTag.ARRAY) {
      return typeName(types.elemtype(erased)) + "[]";
    }
    if (erased.getTag() == TypeTag.CLASS) {
      return binaryName(erased.tsym);
    }
    return erased.toString();
  }

  /**
   * The method a call names in the class file: the declaring type for a private method, a
   * constructor or a method of {@code Object} called on an interface or array; otherwise the erased
   * type of the receiver ({@code site}), as javac's {@code Gen.binaryQualifier} does.
   */
  MethodRef methodRef(MethodSymbol method, Type site) {
    Symbol.TypeSymbol owner = method.owner.type.tsym;
    if (site != null
        && !method.isConstructor()
        && (method.flags() & Flags.PRIVATE) == 0
        && site.getTag() == TypeTag.CLASS) {
      boolean objectOnInterface =
          owner.getQualifiedName().contentEquals("java.lang.Object") && site.tsym.isInterface();
      if (!objectOnInterface) {
        owner = types.erasure(site).tsym;
      }
    }
    return new MethodRef(ownerName(owner), simpleName(method), descriptorOf(method));
  }

  /** The method as declared: its own class, its erased descriptor. */
  MethodRef declared(MethodSymbol method) {
    return new MethodRef(
        ownerName(method.owner.type.tsym), simpleName(method), descriptorOf(method));
  }

  /** The field a read or write names in the class file (qualified by the site, as for calls). */
  FieldRef fieldRef(VarSymbol field, Type site) {
    Symbol.TypeSymbol owner = field.owner.type.tsym;
    if (site != null && site.getTag() == TypeTag.CLASS && (field.flags() & Flags.PRIVATE) == 0) {
      owner = types.erasure(site).tsym;
    }
    return new FieldRef(ownerName(owner), simpleName(field), descriptorOf(field));
  }

  private String ownerName(Symbol.TypeSymbol owner) {
    return binaryNames.computeIfAbsent(owner, o -> binaryName((Symbol.TypeSymbol) o));
  }

  private String simpleName(Symbol symbol) {
    return simpleNames.computeIfAbsent(symbol, s -> s.getSimpleName().toString());
  }

  /** The erased descriptor of a method's or field's declared type. */
  String descriptorOf(Symbol symbol) {
    return symbolDescriptors.computeIfAbsent(symbol, s -> descriptor(s.type));
  }

  /** The JVM access flags of a symbol that the model records. */
  static int access(Symbol symbol) {
    long flags = symbol.flags();
    int access = 0;
    if ((flags & Flags.PUBLIC) != 0) {
      access |= Modifier.PUBLIC;
    }
    if ((flags & Flags.PRIVATE) != 0) {
      access |= Modifier.PRIVATE;
    }
    if ((flags & Flags.PROTECTED) != 0) {
      access |= Modifier.PROTECTED;
    }
    if ((flags & Flags.STATIC) != 0) {
      access |= Modifier.STATIC;
    }
    if ((flags & Flags.FINAL) != 0) {
      access |= Modifier.FINAL;
    }
    if ((flags & Flags.SYNCHRONIZED) != 0) {
      access |= Modifier.SYNCHRONIZED;
    }
    if ((flags & Flags.NATIVE) != 0) {
      access |= Modifier.NATIVE;
    }
    if ((flags & Flags.ABSTRACT) != 0 && (flags & Flags.DEFAULT) == 0) {
      access |= Modifier.ABSTRACT; // javac marks an interface's default methods abstract too
    }
    if ((flags & Flags.INTERFACE) != 0) {
      access |= Modifier.INTERFACE;
    }
    if ((flags & Flags.VOLATILE) != 0 && symbol instanceof VarSymbol) {
      access |= Modifier.VOLATILE;
    }
    return access;
  }
}
