// Issue 24: source/target 11 without release compiles with mvn compile, so lockjaw compiles it with
// -source/-target too (not --release 11) and finds nothing; an explicit lockjaw.release=11 fails
// with a message naming the options it used and the property that changes them. A module with no
// findings gets no empty baseline file.
def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
def first = log.substring(0, log.indexOf('BUILD SUCCESS') < 0 ? log.length() : log.indexOf('BUILD SUCCESS'))
if (!log.contains('BUILD SUCCESS')) failures << 'the first build (clean verify) failed'
if (first.contains('do not compile')) failures << 'lockjaw could not compile what mvn compile compiled'
if (!first.contains('lockjaw: no findings in source-target-newer-api')) failures << 'lockjaw:check did not analyse the module'
if (log.count('BUILD SUCCESS') != 2) failures << 'the first two builds did not both succeed'
if (new File(basedir, 'lockjaw-baseline.json').exists()) failures << 'lockjaw:baseline wrote a baseline with no findings'
if (!log.contains('lockjaw: no findings in source-target-newer-api; no baseline written')) failures << 'lockjaw:baseline did not say why it wrote nothing'
def second = log.substring(log.lastIndexOf('BUILD SUCCESS') + 1)
if (!second.contains('lockjaw cannot analyse source-target-newer-api')) failures << 'the second build did not report the compile failure'
if (!second.contains('--release 11')) failures << 'the message does not name the options lockjaw used'
if (!second.contains('-Dlockjaw.release')) failures << 'the message does not name the property that changes the release'
if (!(second =~ /Workers\.java:\d+: .*(cannot find symbol|does not exist)/)) failures << 'javac\'s error is not shown'
if (second.contains('mvn compile shows them too')) failures << 'the message still claims mvn compile shows the errors'
if (second.contains('Lombok')) failures << 'the message mentions Lombok in a project without it'
if (failures) throw new AssertionError('source-target-newer-api: ' + failures.join('\n  '))
return true
