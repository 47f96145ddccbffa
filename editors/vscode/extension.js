// lockjaw for VS Code: starts lockjaw-language-server (java -jar, LSP over stdio) for Java files.
'use strict';

const path = require('path');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function javaExecutable(configured) {
  if (configured) {
    return configured;
  }
  if (process.env.JAVA_HOME) {
    return path.join(process.env.JAVA_HOME, 'bin', process.platform === 'win32' ? 'java.exe' : 'java');
  }
  return 'java';
}

async function activate(context) {
  const config = vscode.workspace.getConfiguration('lockjaw');
  const jar = config.get('server.jar');
  if (!jar) {
    vscode.window.showWarningMessage(
      'lockjaw: set "lockjaw.server.jar" to the path of lockjaw-language-server-<version>.jar ' +
        '(mvn package in lockjaw\'s language-server/ builds it), then reload the window.');
    return;
  }
  const serverOptions = {
    command: javaExecutable(config.get('java')),
    args: ['-jar', jar],
  };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'java' }],
    synchronize: {
      // a changed pom.xml makes the server resolve that project's classpath again
      fileEvents: vscode.workspace.createFileSystemWatcher('**/pom.xml'),
    },
    initializationOptions: {
      mavenExecutable: config.get('mavenExecutable') || undefined,
      debounceMillis: config.get('debounceMillis'),
    },
  };
  client = new LanguageClient('lockjaw', 'lockjaw', serverOptions, clientOptions);
  await client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
