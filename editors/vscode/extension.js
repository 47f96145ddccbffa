// lockjaw for VS Code: starts lockjaw-language-server (java -jar, LSP over stdio) for Java files.
'use strict';

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { findJava } = require('./jdk');

let client;
let output;

async function start(context) {
  const config = vscode.workspace.getConfiguration('lockjaw');
  const found = findJava(config.get('java'));
  if (found.error) {
    vscode.window.showErrorMessage(found.error);
    return;
  }
  const bundled = context.asAbsolutePath(path.join('server', 'lockjaw-language-server.jar'));
  const jar = config.get('server.jar') || bundled;
  if (!fs.existsSync(jar)) {
    vscode.window.showErrorMessage(
      `lockjaw: the server jar ${jar} does not exist. Clear the "lockjaw.server.jar" setting to use ` +
        'the one bundled with the extension, or set it to a lockjaw-language-server-<version>.jar.');
    return;
  }
  output.appendLine(`lockjaw: running ${jar} with ${found.java} (Java ${found.version})`);
  const serverOptions = { command: found.java, args: ['-jar', jar] };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'java' }],
    outputChannel: output,
    synchronize: {
      // a changed pom.xml makes the server resolve that project's class path again
      fileEvents: vscode.workspace.createFileSystemWatcher('**/pom.xml'),
    },
    initializationOptions: {
      mavenExecutable: config.get('mavenExecutable') || undefined,
      debounceMillis: config.get('debounceMillis'),
      classpathTimeoutSeconds: config.get('classpathTimeoutSeconds'),
    },
  };
  client = new LanguageClient('lockjaw', 'lockjaw', serverOptions, clientOptions);
  await client.start();
}

async function stop() {
  if (client) {
    const running = client;
    client = undefined;
    await running.stop();
  }
}

async function activate(context) {
  output = vscode.window.createOutputChannel('lockjaw');
  context.subscriptions.push(output);
  context.subscriptions.push({ dispose: () => stop() });
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('lockjaw')) {
        await stop();
        await start(context);
      }
    }));
  await start(context);
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
