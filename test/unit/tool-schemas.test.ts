// Each agent tool's schema is written once (src/tools/definitions.ts): the MCP server lists it,
// and package.json's `languageModelTools` holds the same input schema (written there by
// `node scripts/tool-schemas.mjs`). And what those schemas promise a model holds: strict inputs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { INPUT_SCHEMAS, TOOL_NAMES } from '../../src/tools/definitions';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('The agent tools’ schemas, defined once (unit)', () => {
  it("package.json's languageModelTools take the inputs the MCP server lists (node scripts/tool-schemas.mjs writes them)", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: Array<{ name: string; inputSchema: unknown }> };
    };
    const declared = Object.fromEntries(manifest.contributes.languageModelTools.map((t) => [t.name, t.inputSchema]));
    assert.deepEqual(declared, INPUT_SCHEMAS, 'run node scripts/tool-schemas.mjs after changing a tool’s inputs');
  });

  it('every input schema is strict: no property it does not name, whole numbers where whole numbers', () => {
    const walk = (schema: Record<string, unknown>, where: string): void => {
      if (schema.type === 'object' && schema.properties) {
        assert.equal(schema.additionalProperties, false, `${where} takes no other property`);
        for (const [key, value] of Object.entries(schema.properties as Record<string, Record<string, unknown>>))
          walk(value, `${where}.${key}`);
      }
      if (schema.items) walk(schema.items as Record<string, unknown>, `${where}[]`);
      if (/limit$/i.test(where)) assert.equal(schema.type, 'integer', `${where} is a whole number`);
    };
    for (const name of TOOL_NAMES) walk(INPUT_SCHEMAS[name], name);
  });
});
