// a file checked out read-only (Perforce, a generated-then-locked file): lockjaw:fix must not write it
def locked = new File(basedir, 'src/main/java/shop/LockedClient.java')
assert locked.setWritable(false, false)
return true
