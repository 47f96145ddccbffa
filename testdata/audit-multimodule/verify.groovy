// Issue 22, item 8: every module is audited, then the build fails at the end.
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log =~ /lockjaw: auditing \d+ dependency jar\(s\) of audit-first/
assert log =~ /lockjaw: auditing \d+ dependency jar\(s\) of audit-second/, 'the second module was never audited'
assert log.contains('lockjaw: the audit of audit-first fails; the build goes on to audit the remaining modules')
assert log =~ /lockjaw's audit failed in 2 module\(s\), each audited to the end:\s+audit-first: lockjaw found \d+ new finding/
assert log =~ /(?s)audit-second: lockjaw found \d+ new finding/
return true
