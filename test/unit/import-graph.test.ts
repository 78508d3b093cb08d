// The import rules of docs/architecture.md, held over the whole of `src` (issue 27): no import
// cycle (type imports and import() included), no feature importing another feature, no two
// folders importing each other (and a table that allows no such pair; issue 46), each
// folder importing only the layers its row allows, and no product code importing the test seams
// (src/testing): only the composition root does, under `if (TEST_SEAMS)`; product code tells its
// tests through the port src/shared/recorder.ts (test/unit/bundle.test.ts checks what ships).
// The suite prints the graph's figures; a new edge that breaks a rule names the file and the import.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SRC = path.join(ROOT, 'src');

/** The features: each imports only the shared layers and itself, never another feature. */
const FEATURES = ['environments', 'engagements', 'usage', 'chat'];

/** The code that runs inside a webview, and the protocol each feature shares with it. */
const WEBVIEW = ['usage/webview', 'engagements/webview', 'webview'];
/** A protocol may be several files (`usage/protocol.ts` re-exports `usage/protocol.ts`, …). */
const PROTOCOLS = ['usage/protocol', 'engagements/detailsProtocol'];

/** Where a module sits: the first rule whose prefix matches its path under src (no extension). */
function layerOf(module: string): string {
  if (module === 'extension') return 'root';
  // Beside the root: the services assembled from the platform's parts, which every feature is given.
  if (module === 'services') return 'services';
  for (const webview of WEBVIEW) if (module.startsWith(`${webview}/`)) return 'webview';
  if (PROTOCOLS.some((p) => module.startsWith(p))) return 'protocol';
  return module.split('/')[0];
}

/** What each layer may import (besides itself; a feature only its own folder). */
const MAY_IMPORT: Record<string, string[]> = {
  core: [],
  api: ['core'],
  protocol: ['core', 'api/types', 'protocol'],
  webview: ['core', 'api/types', 'protocol', 'webview'],
  ui: ['api', 'core', 'shared/constants'],
  // The agent tools and the MCP server: free of \`vscode\`, over the client and core.
  tools: ['api', 'core'],
  mcp: ['tools', 'api', 'core'],
  shared: ['api', 'core'],
  session: ['api', 'core', 'shared'],
  services: ['api', 'core', 'shared', 'session', 'ui'],
  feature: ['api', 'core', 'ui', 'shared', 'session', 'services', 'protocol', 'tools'],
  // The test seams read every feature's parts; only the root imports them.
  testing: ['api', 'core', 'ui', 'shared', 'session', 'services', 'protocol', 'webview', 'tools', 'mcp', ...FEATURES],
  root: ['*'],
};

interface Edge {
  from: string;
  to: string;
}

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.replace(/\.ts$/, '').split(path.sep).join('/'));
}

function resolve(from: string, specifier: string, modules: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (modules.has(joined)) return joined;
  if (modules.has(`${joined}/index`)) return `${joined}/index`;
  return undefined;
}

function graph(): { modules: string[]; edges: Edge[]; unresolved: string[] } {
  const modules = sources(SRC);
  const known = new Set(modules);
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const from of modules) {
    const text = fs.readFileSync(path.join(SRC, `${from}.ts`), 'utf8');
    // Static imports, `import type`, `export … from` and import() alike.
    const info = ts.preProcessFile(text, true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = resolve(from, fileName, known);
      if (to) edges.push({ from, to });
      else unresolved.push(`${from} → ${fileName}`);
    }
  }
  return { modules, edges, unresolved };
}

/** Every cycle, each once (Tarjan's strongly connected components; a component of more than one module is a cycle). */
function cycles(modules: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(modules.map((m) => [m, []]));
  for (const { from, to } of edges) next.get(from)?.push(to);
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (m: string) => {
    indexOf.set(m, index);
    low.set(m, index++);
    stack.push(m);
    onStack.add(m);
    for (const n of next.get(m) ?? []) {
      if (!indexOf.has(n)) {
        visit(n);
        low.set(m, Math.min(low.get(m)!, low.get(n)!));
      } else if (onStack.has(n)) low.set(m, Math.min(low.get(m)!, indexOf.get(n)!));
    }
    if (low.get(m) !== indexOf.get(m)) return;
    const component: string[] = [];
    let popped: string | undefined;
    do {
      popped = stack.pop()!;
      onStack.delete(popped);
      component.push(popped);
    } while (popped !== m);
    if (component.length > 1 || (next.get(m) ?? []).includes(m)) found.push(component.sort());
  };
  for (const m of modules) if (!indexOf.has(m)) visit(m);
  return found;
}

function allowed(from: string, to: string): boolean {
  const fromLayer = layerOf(from);
  const toLayer = layerOf(to);
  if (FEATURES.includes(fromLayer)) {
    if (toLayer === fromLayer) return true;
    return MAY_IMPORT.feature.some((p) => toLayer === p || to === p || to.startsWith(`${p}/`));
  }
  const rule = MAY_IMPORT[fromLayer];
  if (!rule) return false;
  if (rule.includes('*') || toLayer === fromLayer) return true;
  return rule.some((p) => toLayer === p || to === p || to.startsWith(`${p}/`));
}

describe('The import graph of src (unit)', () => {
  const { modules, edges, unresolved } = graph();

  it('every relative import names a module of src', () => {
    assert.deepEqual(unresolved, []);
  });

  it('no cycle, type imports and import() included', () => {
    const found = cycles(modules, edges);
    console.log(`      modules: ${modules.length}, imports: ${edges.length}, cycles: ${found.length}`);
    assert.deepEqual(
      found.map((c) => c.join(' ↔ ')),
      [],
    );
  });

  it('no feature imports another feature', () => {
    const across = edges.filter(
      ({ from, to }) =>
        FEATURES.includes(layerOf(from)) && FEATURES.includes(layerOf(to)) && layerOf(from) !== layerOf(to),
    );
    console.log(`      feature-to-feature imports: ${across.length}`);
    assert.deepEqual(
      across.map(({ from, to }) => `${from} → ${to}`),
      [],
    );
  });

  it('no two folders of src import each other (the root files count as folders of their own)', () => {
    const folderOf = (module: string) => module.split('/')[0];
    const across = new Set(
      edges
        .filter(({ from, to }) => folderOf(from) !== folderOf(to))
        .map(({ from, to }) => `${folderOf(from)} → ${folderOf(to)}`),
    );
    const mutual = [...across]
      .map((edge) => edge.split(' → '))
      .filter(([from, to]) => from < to && across.has(`${to} → ${from}`))
      .map(([from, to]) => `${from} ↔ ${to}`);
    console.log(`      folder-to-folder imports: ${across.size}, pairs importing each other: ${mutual.length}`);
    assert.deepEqual(mutual, []);
  });

  it('the table allows no two layers to import each other', () => {
    const layers = [...Object.keys(MAY_IMPORT), ...FEATURES];
    const allows = (from: string, to: string) =>
      (FEATURES.includes(from) ? MAY_IMPORT.feature : (MAY_IMPORT[from] ?? [])).some(
        (p) => p === '*' || p === to || p.startsWith(`${to}/`),
      );
    const mutual = layers.flatMap((from) =>
      layers.filter((to) => from < to && allows(from, to) && allows(to, from)).map((to) => `${from} ↔ ${to}`),
    );
    assert.deepEqual(mutual, []);
  });

  it("each folder imports only what docs/architecture.md's table allows", () => {
    const broken = edges.filter(({ from, to }) => !allowed(from, to)).map(({ from, to }) => `${from} → ${to}`);
    assert.deepEqual(broken, []);
  });

  it('no product code imports the test seams: only the composition root does', () => {
    const reaching = edges.filter(
      ({ from, to }) => layerOf(to) === 'testing' && !['testing', 'root'].includes(layerOf(from)),
    );
    assert.deepEqual(
      reaching.map(({ from, to }) => `${from} → ${to}`),
      [],
    );
  });

  it('the rules are not empty: the layers and features named exist in src', () => {
    const layers = new Set(modules.map(layerOf));
    for (const name of [...FEATURES, 'api', 'core', 'ui', 'shared', 'session', 'testing', 'webview', 'protocol'])
      assert.ok(layers.has(name), `no module of src is in ${name}`);
    for (const name of ['tools', 'mcp']) assert.ok(layers.has(name), `no module of src is in ${name}`);
  });

  it('the layers the MCP server is built from import no `vscode`: it runs in plain Node', () => {
    const plain = modules.filter((m) => ['api', 'core', 'tools', 'mcp'].includes(layerOf(m)));
    const found = plain.filter((m) =>
      ts
        .preProcessFile(fs.readFileSync(path.join(SRC, `${m}.ts`), 'utf8'), true, true)
        .importedFiles.some((f) => f.fileName === 'vscode'),
    );
    assert.deepEqual(found, []);
  });
});
