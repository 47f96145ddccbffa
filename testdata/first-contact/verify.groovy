// Issue 17, items 17 and 3: the compiler plugin's release is used, and a read-only file is not rewritten.
def log = new File(basedir, 'build.log').getText('UTF-8')
def source = { name -> new File(basedir, "src/main/java/shop/${name}.java").getText('UTF-8') }
def failures = []
if (log.contains('do not compile') || log.contains('cannot find symbol')) failures << 'lockjaw analysed at the property\'s Java 8, not the compiler plugin\'s 17'
if (!source('Quotes').contains('private static final HttpClient HTTP_CLIENT')) failures << 'Quotes was not fixed'
if (source('LockedClient').contains('HTTP_CLIENT')) failures << 'the read-only LockedClient was rewritten'
// the permission bits, not canWrite(): root may write any file, so canWrite() is always true for it
if (java.nio.file.Files.getPosixFilePermissions(new File(basedir, 'src/main/java/shop/LockedClient.java').toPath())
        .contains(java.nio.file.attribute.PosixFilePermission.OWNER_WRITE)) {
    failures << 'LockedClient lost its read-only permission'
}
if (!log.contains('src/main/java/shop/LockedClient.java is read-only; not fixing its 1 finding(s)')) failures << 'no warning about the read-only file'
// item 8: six per-call clients in one file are all fixed in one run, each with its own field
def services = source('Services')
(['HTTP_CLIENT'] + (2..6).collect { "HTTP_CLIENT_${it}" }).each { name ->
    if (!services.contains("private static final HttpClient ${name} = HttpClient.newHttpClient();")) failures << "Services has no ${name}"
}
if (services.contains('HttpClient client =')) failures << 'a per-call client in Services was left for another run'
if (log.contains('still pending')) failures << 'fix left fixes pending'
if (!log.contains('lockjaw: fixed 2 file(s) in first-contact; the module still compiles.')) failures << 'fix did not report its work'
if (failures) throw new AssertionError('first-contact: ' + failures.join('\n  '))
return true
