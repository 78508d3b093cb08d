// Writes each agent tool's input schema into package.json's `contributes.languageModelTools`
// from its one definition (src/tools/definitions.ts), the schema the MCP server lists too.
// Run after changing a tool's inputs: `node scripts/tool-schemas.mjs`;
// test/unit/tool-schemas.test.ts fails while the two differ.
import * as esbuild from 'esbuild';
import fs from 'node:fs';

const built = await esbuild.build({
  entryPoints: ['src/tools/definitions.ts'],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
});
const url = `data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString('base64')}`;
const { INPUT_SCHEMAS } = await import(url);

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const tools = pkg.contributes.languageModelTools;
const missing = Object.keys(INPUT_SCHEMAS).filter((name) => !tools.some((tool) => tool.name === name));
if (missing.length) throw new Error(`package.json declares no languageModelTools entry for ${missing.join(', ')}`);
for (const tool of tools) {
  if (!INPUT_SCHEMAS[tool.name]) throw new Error(`${tool.name} in package.json is no tool of src/tools/definitions.ts`);
  tool.inputSchema = INPUT_SCHEMAS[tool.name];
}
fs.writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`package.json: the input schemas of ${tools.length} tools written from src/tools/definitions.ts`);
