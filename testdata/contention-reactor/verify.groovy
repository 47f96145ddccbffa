// lockjaw:contention ran once for the reactor: it found load/threads.txt relative to the directory
// Maven was started in, tied the catalogue module's site to ClassMonitorCache and the orders
// module's to SharedMonitorDao (with the holder in its socket read), and wrote one report, at the
// root.
def log = new File(basedir, 'build.log').getText('UTF-8')
def failures = []
if (!log.contains('BUILD SUCCESS')) failures << 'the build failed'
if ((log =~ /lockjaw contention: /).count != 1) failures << 'the report was not written exactly once'
if (log.contains('does not exist')) failures << 'the path was resolved against a module'
if (!log.contains('lockjaw contention: 2 contended lock sites (2 with a lockjaw finding) from 1 thread dump in 1 file')) {
    failures << 'the summary line is missing or wrong'
}
if (!(log =~ /\s1\s+5\s+1\/1\s+OrderDao\.find\(OrderDao\.java:22\)\s+monitor enter: OrderDao\s+SharedMonitorDao/)) failures << 'the orders module row'
if (!(log =~ /\s2\s+3\s+1\/1\s+ProductCatalog\.describe\(ProductCatalog\.java:13\)\s+monitor enter: ProductCatalog\.class\s+ClassMonitorCache/)) failures << 'the catalog module row'
if (!log.contains('Held by: socket read (Socket$SocketInputStream.read) in OrderDao.statement(OrderDao.java:35) < OrderDao.find(OrderDao.java:22) (5 of 5 waiting threads: http-nio-8080-exec-1); the holder ran the SharedMonitorDao finding\'s code')) {
    failures << "the DAO's holder"
}
def root = new File(basedir, 'target/lockjaw')
['contention.md', 'contention.html', 'contention.sarif'].each { if (!new File(root, it).isFile()) failures << "no ${it} at the root" }
['catalog', 'orders'].each { if (new File(basedir, "${it}/target/lockjaw/contention.md").exists()) failures << "a report in ${it}" }
def md = new File(root, 'contention.md')
if (md.isFile() && !md.getText('UTF-8').contains('catalog/src/main/java/shop/catalog/ProductCatalog.java')) failures << 'the catalogue finding is not located in its module'
if (failures) throw new AssertionError('contention-reactor: ' + failures.join('\n  '))
return true
