package io.github.lockjaw.model.source;

import com.sun.tools.javac.code.ClassFinder;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.ModuleSymbol;
import com.sun.tools.javac.code.Symtab;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.util.Context;
import com.sun.tools.javac.util.Names;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.ClassFactsSource;
import io.github.lockjaw.model.TypeHierarchy;
import io.github.lockjaw.model.bytecode.ClassFileFacts;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.tools.JavaFileObject;

/**
 * What javac knows of classes outside the sources being compiled: their supertypes from its
 * symbols, and their code from their class files, read by the bytecode front-end.
 */
final class JavacLibrary implements TypeHierarchy, ClassFactsSource {
  private final Symtab symtab;
  private final Names names;
  private final ClassFinder finder;

  JavacLibrary(Context context) {
    this.symtab = Symtab.instance(context);
    this.names = Names.instance(context);
    this.finder = ClassFinder.instance(context);
  }

  private ClassSymbol find(String binaryName) {
    try {
      for (ClassSymbol symbol : symtab.getClassesForName(names.fromString(binaryName))) {
        return symbol;
      }
      for (ModuleSymbol module : List.of(symtab.unnamedModule, symtab.java_base)) {
        try {
          ClassSymbol loaded = finder.loadClass(module, names.fromString(binaryName));
          if (loaded != null && loaded.exists()) {
            return loaded;
          }
        } catch (RuntimeException e) {
          // not in that module
        }
      }
      return null;
    } catch (RuntimeException e) {
      return null; // a missing or broken class is no evidence
    }
  }

  @Override
  public Optional<Supertypes> supertypes(String binaryName) {
    ClassSymbol symbol = find(binaryName);
    if (symbol == null) {
      return Optional.empty();
    }
    try {
      symbol.complete();
      Type superclass = symbol.getSuperclass();
      String superName =
          superclass != null && superclass.getTag() == TypeTag.CLASS
              ? JavacNames.binaryName(superclass.tsym)
              : null;
      List<String> interfaces = new ArrayList<>();
      for (Type i : symbol.getInterfaces()) {
        interfaces.add(JavacNames.binaryName(i.tsym));
      }
      return Optional.of(new Supertypes(superName, interfaces, symbol.isInterface()));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  @Override
  public Optional<ClassFacts> load(String binaryName) {
    ClassSymbol symbol = find(binaryName);
    if (symbol == null) {
      return Optional.empty();
    }
    try {
      symbol.complete();
      JavaFileObject file = symbol.classfile;
      if (file == null || file.getKind() != JavaFileObject.Kind.CLASS) {
        return Optional.empty();
      }
      byte[] bytes;
      try (InputStream in = file.openInputStream()) {
        bytes = in.readAllBytes();
      }
      return Optional.of(ClassFileFacts.readOnDemand(bytes, file.toUri().toString()));
    } catch (Exception e) {
      return Optional.empty();
    }
  }
}
