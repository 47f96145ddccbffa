def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('lockjaw runs Error Prone 2.50, which needs JDK 21 or newer, but Maven is running on JDK 17')
assert log.contains('-Dlockjaw.javaHome=')
assert !log.contains('UnsupportedClassVersionError')
return true
