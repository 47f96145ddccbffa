package io.github.lockjaw.bytecode;

import edu.umd.cs.findbugs.ba.XClass;
import edu.umd.cs.findbugs.classfile.ClassDescriptor;
import edu.umd.cs.findbugs.classfile.DescriptorFactory;
import edu.umd.cs.findbugs.classfile.Global;
import edu.umd.cs.findbugs.classfile.analysis.ClassData;
import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.ClassFactsSource;
import io.github.lockjaw.model.TypeHierarchy;
import io.github.lockjaw.model.bytecode.ClassFileFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What SpotBugs knows of classes outside the analysed jars (the auxiliary class path and the JDK):
 * their supertypes, and their code read by the model's bytecode front-end.
 */
final class SpotBugsModel implements TypeHierarchy, ClassFactsSource {

  private static ClassDescriptor descriptor(String binaryName) {
    return DescriptorFactory.createClassDescriptor(binaryName.replace('.', '/'));
  }

  @Override
  public Optional<Supertypes> supertypes(String binaryName) {
    try {
      XClass xClass =
          Global.getAnalysisCache().getClassAnalysis(XClass.class, descriptor(binaryName));
      ClassDescriptor superclass = xClass.getSuperclassDescriptor();
      List<String> interfaces = new ArrayList<>();
      for (ClassDescriptor i : xClass.getInterfaceDescriptorList()) {
        interfaces.add(i.getDottedClassName());
      }
      return Optional.of(
          new Supertypes(
              superclass == null || xClass.isInterface() ? null : superclass.getDottedClassName(),
              interfaces,
              xClass.isInterface()));
    } catch (Exception e) {
      return Optional.empty(); // not on the class path: no evidence
    }
  }

  @Override
  public Optional<ClassFacts> load(String binaryName) {
    try {
      ClassData data =
          Global.getAnalysisCache().getClassAnalysis(ClassData.class, descriptor(binaryName));
      return Optional.of(
          ClassFileFacts.readOnDemand(
              data.getData(), data.getCodeBaseEntry().getCodeBase().getPathName()));
    } catch (Exception e) {
      return Optional.empty();
    }
  }
}
