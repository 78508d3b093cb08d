// What ships is only the product (issue 27): the production build of the extension contains
// nothing of the test seams. The probe names are read from src/testing itself (every name
// declared there that product code never uses), so a probe added later is checked too; the
// development build, which has the seams, must contain them, or the check would prove nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SRC = path.join(ROOT, 'src');

interface Built {
  /** Every script the build wrote, as text. */
  code: string;
  /** Each script by its file name (extension.js, web.js, …). */
  scripts: Record<string, string>;
  /** The bytes each source file contributed to the output (metafile). */
  inputs: Record<string, number>;
  /** The extension bundle, in KB. */
  extensionKb: number;
}

function build(production: boolean): Built {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-bundle-'));
  try {
    const args = ['esbuild.mjs', `--outdir=${dir}`, ...(production ? ['--production'] : [])];
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as {
      outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
    };
    const inputs: Record<string, number> = {};
    let extensionBytes = 0;
    for (const [file, output] of Object.entries(meta.outputs)) {
      if (file.endsWith('extension.js')) extensionBytes += output.bytes;
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
        inputs[input] = (inputs[input] ?? 0) + bytesInOutput;
    }
    const scripts = Object.fromEntries(
      fs
        .readdirSync(dir)
        .filter((f) => /\.m?js$/.test(f))
        .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
    );
    return { code: Object.values(scripts).join('\n'), scripts, inputs, extensionKb: extensionBytes / 1024 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f));
}

/** Every identifier and property name written in these files. */
function names(paths: string[], declaredOnly: boolean): Set<string> {
  const found = new Set<string>();
  for (const file of paths) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (declaredOnly) {
        const named = node as ts.Node & { name?: ts.Node };
        const isDeclaration =
          ts.isPropertySignature(node) ||
          ts.isMethodSignature(node) ||
          ts.isPropertyAssignment(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isFunctionDeclaration(node);
        if (isDeclaration && named.name && ts.isIdentifier(named.name)) found.add(named.name.text);
      } else if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) found.add(node.text.replace(/^#/, ''));
      else if (ts.isStringLiteral(node)) found.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('The production bundle holds only the product (unit)', function () {
  this.timeout(240_000);
  let production: Built;
  let development: Built;
  let probeNames: string[];

  before(() => {
    production = build(true);
    development = build(false);
    const testing = files(path.join(SRC, 'testing'));
    const product = files(SRC).filter((f) => !f.startsWith(path.join(SRC, 'testing') + path.sep));
    const used = names(product, false);
    // Names of six letters or more that only the seams declare: short ones could be any word.
    probeNames = [...names(testing, true)].filter((n) => n.length >= 6 && !used.has(n)).sort();
    console.log(
      `      extension: production ${production.extensionKb.toFixed(1)} KB, development ${development.extensionKb.toFixed(1)} KB; probe names checked: ${probeNames.length}`,
    );
  });

  it('no source file of src/testing contributes a byte to the production build', () => {
    const fromTesting = Object.entries(production.inputs)
      .filter(([input, bytes]) => input.includes('src/testing/') && bytes > 0)
      .map(([input]) => input);
    assert.deepEqual(fromTesting, []);
  });

  it('the development build has the seams (so the checks here can fail)', () => {
    assert.ok(
      Object.keys(development.inputs).some((input) => input.includes('src/testing/seams')),
      'the development build has no test seams',
    );
    assert.ok(probeNames.length >= 20, `only ${probeNames.length} probe names found in src/testing`);
    const missing = probeNames.filter((name) => !new RegExp(`\\b${name}\\b`).test(development.code));
    assert.deepEqual(missing, [], 'probe names the development build should contain');
  });

  it('no probe name is in the production build', () => {
    // As a whole word: `prepare` is a probe, `prepareInvocation` is VS Code's API.
    const shipped = probeNames.filter((name) => new RegExp(`\\b${name}\\b`).test(production.code));
    assert.deepEqual(shipped, []);
  });

  it('the production build writes SecretStorage only where the key vault does (the key with its origin)', () => {
    // The seam that stores a key the way earlier builds did exists in development builds only.
    const count = (code: string) => (code.match(/\.secrets\.store\(/g) ?? []).length;
    const vault = count(fs.readFileSync(path.join(SRC, 'session', 'keyVault.ts'), 'utf8'));
    assert.ok(vault > 0);
    for (const bundle of ['extension.js', 'web.js']) {
      assert.equal(count(production.scripts[bundle]), vault, bundle);
      assert.equal(count(development.scripts[bundle]), vault + 1, bundle);
    }
  });

  it('the browser bundle (VS Code for the Web) needs nothing of Node: only `vscode` is required, no Node global is used', () => {
    for (const built of [production, development]) {
      const web = built.scripts['web.js'];
      assert.ok(web, 'the build wrote web.js');
      const required = [...new Set([...web.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]))];
      assert.deepEqual(required, ['vscode']);
      assert.deepEqual(web.match(/["'`]node:\w+/g) ?? [], []);
      // A global Node gives and a web worker does not (a method named `process` is not one).
      const globals =
        web.match(
          /(?<![\w.$])(?:process|Buffer)(?=\s*\.)|\btypeof\s+(?:process|Buffer)\b|(?<![\w.$])(?:__dirname|__filename|setImmediate)\b/g,
        ) ?? [];
      assert.deepEqual([...new Set(globals)], []);
    }
    // The Node bundle does have them, so the check can fail.
    assert.match(production.scripts['extension.js'], /(?<![\w.$])process\.execPath/);
  });
});
