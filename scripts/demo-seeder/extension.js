// Used only by `npm start` (scripts/start.mjs), never packaged: when the local reference
// service's address and demo key are in the environment (EUS_DEMO_URL, EUS_DEMO_KEY), it adds
// the "Demo" environment by answering the extension's own Add Environment flow (label → URL →
// key) through the extension's `useUi` seam, so the key is checked and stored in SecretStorage
// exactly as when a person types it. Then it opens the Engagements view.
const vscode = require('vscode');

const LABEL = 'Demo';

exports.activate = async function activate() {
  const url = process.env.EUS_DEMO_URL;
  const key = process.env.EUS_DEMO_KEY;
  if (!url || !key) return;
  const ext = vscode.extensions.getExtension('eus-tools.engagement-usage');
  if (!ext) return;
  const api = await ext.activate();
  const existing = api.environments?.list().find((env) => env.label === LABEL);
  if (!existing) {
    const answers = [LABEL, url, key];
    api.useUi({
      input: async () => answers.shift(),
      pick: async () => undefined,
      pickMany: async () => undefined,
      message: async (_level, text) => {
        console.log(`[demo-seeder] ${text}`);
        return undefined;
      },
      saveFile: async () => undefined,
    });
    try {
      await vscode.commands.executeCommand('engagementUsage.addEnvironment');
    } finally {
      api.useUi(undefined);
    }
  }
  await vscode.commands.executeCommand('workbench.view.extension.engagementUsage');
};

exports.deactivate = function deactivate() {};
