def log = new File(basedir, 'build.log').getText('UTF-8')
assert !log.contains('UnsupportedClassVersionError'), 'the goal touched JDK 21 classes in Maven\'s JDK 17'
assert log =~ /lockjaw: auditing in a JDK \d+ JVM/
assert log =~ /commons-pool:commons-pool:1\.3: org\.apache\.commons\.pool\.impl\.GenericObjectPool\.borrowObject\(\)[^\n]*\[SharedMonitorDao\]/
assert log =~ /lockjaw found \d+ new finding\(s\) at or above WARNING in audit-old-jdk/
return true
