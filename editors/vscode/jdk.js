// Finds the java of a JDK 21 or newer to run lockjaw-language-server with. Kept apart from
// extension.js, which needs VS Code, so that node alone can test it.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const REQUIRED = 21;

function executable(platform) {
  return platform === 'win32' ? 'java.exe' : 'java';
}

function feature(version) {
  const v = version.startsWith('1.') ? version.slice(2) : version;
  return parseInt(v, 10) || 0;
}

/** The feature version (17, 21, 25) of the given java executable, 0 when it cannot be told. */
function javaVersion(java) {
  try {
    // A JDK's home has a `release` file: JAVA_VERSION="21.0.4"
    const home = path.dirname(path.dirname(fs.realpathSync(java)));
    const release = fs.readFileSync(path.join(home, 'release'), 'utf8');
    const match = /^JAVA_VERSION="?([0-9][0-9.]*)/m.exec(release);
    if (match) {
      return feature(match[1]);
    }
  } catch (e) {
    // no release file: ask the JVM itself
  }
  const run = spawnSync(java, ['-XshowSettings:properties', '-version'], {
    encoding: 'utf8',
    timeout: 15000,
  });
  const match = /java\.specification\.version = ([0-9][0-9.]*)/.exec(`${run.stderr || ''}${run.stdout || ''}`);
  return match ? feature(match[1]) : 0;
}

/** Where JDKs are usually installed; each folder holds one JDK home per entry. */
function installFolders(platform, env) {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (platform === 'win32') {
    const programFiles = [env.ProgramFiles, env['ProgramFiles(x86)']].filter(Boolean);
    const vendors = ['Java', 'Eclipse Adoptium', 'Microsoft', 'Zulu', 'Amazon Corretto', 'BellSoft'];
    return programFiles.flatMap((p) => vendors.map((v) => path.join(p, v))).concat(path.join(home, '.jdks'));
  }
  if (platform === 'darwin') {
    return [
      '/Library/Java/JavaVirtualMachines',
      path.join(home, 'Library/Java/JavaVirtualMachines'),
      path.join(home, '.sdkman/candidates/java'),
      path.join(home, '.jdks'),
    ];
  }
  return ['/usr/lib/jvm', '/usr/java', '/opt/java', path.join(home, '.sdkman/candidates/java'), path.join(home, '.jdks')];
}

/** The java executables to try, in order: JAVA_HOME, the PATH, then the install folders, newest name first. */
function candidates(platform, env) {
  const list = [];
  if (env.JAVA_HOME) {
    list.push(path.join(env.JAVA_HOME, 'bin', executable(platform)));
  }
  for (const dir of (env.PATH || env.Path || '').split(path.delimiter)) {
    if (dir) {
      list.push(path.join(dir, executable(platform)));
    }
  }
  for (const folder of installFolders(platform, env)) {
    let names;
    try {
      names = fs.readdirSync(folder);
    } catch (e) {
      continue;
    }
    names.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    for (const name of names) {
      list.push(path.join(folder, name, 'bin', executable(platform)));
      list.push(path.join(folder, name, 'Contents', 'Home', 'bin', executable(platform))); // macOS
    }
  }
  return list;
}

/**
 * The java to run the server with: the configured one, which must be Java 21+, else the first
 * Java 21+ found. Returns { java, version } or { error }, a sentence that says what to do.
 */
function findJava(configured, { platform = process.platform, env = process.env } = {}) {
  if (configured) {
    if (!fs.existsSync(configured)) {
      return {
        error:
          `lockjaw: the "lockjaw.java" setting names ${configured}, which does not exist. Set it to ` +
          `the java of a JDK ${REQUIRED} or newer, or clear it and lockjaw finds one.`,
      };
    }
    const version = javaVersion(configured);
    if (version < REQUIRED) {
      return {
        error:
          `lockjaw: the "lockjaw.java" setting names ${configured}, which is Java ${version || '(version unknown)'}; ` +
          `the lockjaw server needs Java ${REQUIRED} or newer (your code may target any release). ` +
          'Set it to the java of a newer JDK, or clear it and lockjaw finds one.',
      };
    }
    return { java: configured, version };
  }
  const seen = new Set();
  const older = [];
  for (const java of candidates(platform, env)) {
    let real;
    try {
      real = fs.realpathSync(java);
      if (!fs.statSync(real).isFile()) {
        continue;
      }
    } catch (e) {
      continue;
    }
    if (seen.has(real)) {
      continue;
    }
    seen.add(real);
    const version = javaVersion(real);
    if (version >= REQUIRED) {
      return { java, version };
    }
    older.push(`${java} (Java ${version || '?'})`);
  }
  return {
    error:
      `lockjaw: no Java ${REQUIRED} or newer found in JAVA_HOME, on the PATH or in the usual install folders` +
      (older.length ? ` (only ${older.join(', ')})` : '') +
      `. Install a JDK ${REQUIRED}+ (for example Eclipse Temurin 21) or set "lockjaw.java" to its java, ` +
      'then reload the window.',
  };
}

module.exports = { findJava, javaVersion, REQUIRED };
