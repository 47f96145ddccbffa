package io.github.lockjaw.bytecode;

import java.util.ArrayList;
import java.util.List;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Attribute;
import org.apache.bcel.classfile.InnerClass;
import org.apache.bcel.classfile.InnerClasses;
import org.apache.bcel.classfile.JavaClass;

/** The entries of a class file's InnerClasses attribute, with their classes' dotted names. */
record NestedClasses(String className, InnerClass entry) {

  /** Every entry of {@code javaClass}'s InnerClasses attribute (none when it has no such). */
  static List<NestedClasses> of(JavaClass javaClass) {
    List<NestedClasses> entries = new ArrayList<>();
    for (Attribute attribute : javaClass.getAttributes()) {
      if (attribute instanceof InnerClasses inner) {
        for (InnerClass entry : inner.getInnerClasses()) {
          String name =
              javaClass
                  .getConstantPool()
                  .getConstantString(entry.getInnerClassIndex(), Const.CONSTANT_Class);
          entries.add(new NestedClasses(name.replace('/', '.'), entry));
        }
      }
    }
    return entries;
  }

  /** A local class: no outer class, but a name. */
  boolean isLocal() {
    return entry.getOuterClassIndex() == 0 && entry.getInnerNameIndex() != 0;
  }

  boolean isPrivate() {
    return (entry.getInnerAccessFlags() & Const.ACC_PRIVATE) != 0;
  }
}
