import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// Localisation is finished only if every text a user reads can be translated: it goes through
// `vscode.l10n.t` or the seam `l10n.t` of src/core with a literal message, and that message is
// in l10n/bundle.l10n.json, which the build writes with @vscode/l10n-dev. These tests read the
// sources with the TypeScript parser (a second reader beside l10n-dev) and fail on any text
// that would stay English.
const root = path.resolve(__dirname, '..', '..', '..');
const src = path.join(root, 'src');
const bundlePath = path.join(root, 'l10n', 'bundle.l10n.json');

/** Properties and attributes whose value a user reads (quick picks, inputs, tree items, status bar, DOM). */
const SHOWN_PROPERTIES = new Set([
  'title',
  'prompt',
  'placeholder',
  'placeHolder',
  'label',
  'description',
  'detail',
  'tooltip',
  'validationMessage',
  'text',
  'message',
  'aria-label',
  'alt',
  'textContent',
  'innerText',
]);
/** Calls whose string arguments a user reads. */
const SHOWN_ARGUMENTS = new Set([
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'setStatusBarMessage',
]);

interface Source {
  file: string;
  tree: ts.SourceFile;
}

function sources(): Source[] {
  return fs
    .readdirSync(src, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => ({
      file: `src/${file}`,
      tree: ts.createSourceFile(file, fs.readFileSync(path.join(src, file), 'utf8'), ts.ScriptTarget.Latest, true),
    }));
}

/** Words, not an id or a separator: two words, a capitalised one (`Retry`), or a word beside a value (`${n} items`). */
function isProse(text: string, template: boolean): boolean {
  return (
    /[A-Za-z]{2,}[^]*\s[^]*[A-Za-z]/.test(text) ||
    /^[A-Z][a-z]+/.test(text) ||
    (template && /[A-Za-z]{2,}\s|\s[A-Za-z]{2,}/.test(text))
  );
}

/** The literal text of a string or template (its fixed parts), undefined for anything else. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('${}');
  return undefined;
}

/** The values an expression may take: both sides of `?:`, `??` and `||`. */
function alternatives(node: ts.Expression): ts.Expression[] {
  if (ts.isParenthesizedExpression(node)) return alternatives(node.expression);
  if (ts.isConditionalExpression(node)) return [...alternatives(node.whenTrue), ...alternatives(node.whenFalse)];
  if (
    ts.isBinaryExpression(node) &&
    (node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
      node.operatorToken.kind === ts.SyntaxKind.BarBarToken)
  )
    return [...alternatives(node.left), ...alternatives(node.right)];
  return [node];
}

function where(source: Source, node: ts.Node): string {
  return `${source.file}:${source.tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
}

function calleeName(call: ts.CallExpression): string {
  if (ts.isPropertyAccessExpression(call.expression)) return call.expression.name.text;
  return ts.isIdentifier(call.expression) ? call.expression.text : '';
}

/** `vscode.l10n.t(…)` or the seam's `l10n.t(…)`. */
function isTranslation(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 't') return false;
  const object = callee.expression;
  return (
    (ts.isIdentifier(object) && object.text === 'l10n') ||
    (ts.isPropertyAccessExpression(object) &&
      object.name.text === 'l10n' &&
      ts.isIdentifier(object.expression) &&
      object.expression.text === 'vscode')
  );
}

/** Literal prose given straight to a place a user reads, not through a translation. */
export function untranslatedTexts(list: Source[]): string[] {
  const found: string[] = [];
  for (const source of list) {
    // The network layer's messages are diagnostics for the log; src/api/errorText.ts says what
    // happened in the user's language, by kind (and is checked as product prose).
    if (source.file.startsWith('src/api/') && source.file !== 'src/api/errorText.ts') continue;
    // What the agent tools tell a model of themselves (schemas, MCP titles and descriptions) is
    // written for models, in English, as package.json's input schemas are; the MCP server runs
    // outside VS Code, where no language bundle is loaded.
    if (source.file === 'src/tools/definitions.ts' || source.file.startsWith('src/mcp/')) continue;
    const check = (value: ts.Expression, how: string) => {
      for (const node of alternatives(value)) {
        const text = literalText(node);
        if (text !== undefined && isProse(text, ts.isTemplateExpression(node)))
          found.push(`${where(source, node)} ${how}: ${JSON.stringify(text)}`);
      }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const name = calleeName(node);
        if (SHOWN_ARGUMENTS.has(name)) node.arguments.forEach((arg) => check(arg, name));
        // The webviews' DOM helper h(tag, attributes, ...children).
        if (name === 'h') node.arguments.slice(2).forEach((arg) => check(arg, 'webview text'));
      }
      // What src/core returns is shown by its callers (validation messages, words, times).
      if (source.file.startsWith('src/core/') && ts.isReturnStatement(node) && node.expression)
        check(node.expression, 'returned by src/core');
      if (ts.isPropertyAssignment(node)) {
        const name = literalText(node.name) ?? node.name.getText(source.tree);
        if (SHOWN_PROPERTIES.has(name)) check(node.initializer, name);
      }
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isPropertyAccessExpression(node.left) &&
        SHOWN_PROPERTIES.has(node.left.name.text)
      )
        check(node.right, node.left.name.text);
      ts.forEachChild(node, visit);
    };
    visit(source.tree);
  }
  return found;
}

/** Every call of l10n.t: its literal message, or where a message is not literal (l10n-dev cannot see it). */
function translationCalls(list: Source[]): { messages: Map<string, string>; notLiteral: string[] } {
  const messages = new Map<string, string>();
  const notLiteral: string[] = [];
  for (const source of list) {
    const visit = (node: ts.Node): void => {
      // The one place that hands the seam's calls on to VS Code (src/extension.ts).
      const forwards =
        node.parent !== undefined &&
        ts.isArrowFunction(node.parent) &&
        ts.isPropertyAssignment(node.parent.parent) &&
        node.parent.parent.name.getText(source.tree) === 'translate';
      if (ts.isCallExpression(node) && isTranslation(node) && !forwards) {
        const first = node.arguments[0];
        if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)))
          messages.set(first.text, where(source, node));
        else notLiteral.push(`${where(source, node)}: ${node.getText(source.tree).slice(0, 80)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source.tree);
  }
  return { messages, notLiteral };
}

function parse(text: string, file: string): Source[] {
  return [{ file, tree: ts.createSourceFile('probe.ts', text, ts.ScriptTarget.Latest, true) }];
}

describe('localisation: every text a user reads can be translated', () => {
  const all = sources();

  it('no literal text reaches a message, quick pick, input box, tree item, status bar or webview without l10n.t', () => {
    assert.deepEqual(untranslatedTexts(all), [], 'wrap these in vscode.l10n.t (or l10n.t from src/core/l10n.ts)');
  });

  it('the check itself finds what it must, and lets translated text and ids pass', () => {
    const found = untranslatedTexts(
      parse(
        `
        void vscode.window.showWarningMessage('Something failed.', 'Retry');
        const item = { label: cond ? 'Open Details' : vscode.l10n.t('Close'), detail: \`\${count} engagements\` };
        bar.text = '$(key) Replace key';
        bar.tooltip = vscode.l10n.t('Replace the key');
        h('p', {}, 'No records.');
        h('p', { attrs: { 'aria-label': 'Usage by key' } }, t('keysHeading'));
        const id = { label: 'engagementUsage.view', text: '$(key)', message: 'warning' };
      `,
        'src/probe.ts',
      ),
    ).concat(
      untranslatedTexts(
        parse(
          `export function validateType(input: string) { return input ? undefined : 'A type is required.'; }`,
          'src/core/probe.ts',
        ),
      ),
    );
    assert.deepEqual(
      found.map((f) => f.replace(/^src\/(core\/)?probe\.ts:\d+ /, '')),
      [
        'showWarningMessage: "Something failed."',
        'showWarningMessage: "Retry"',
        'label: "Open Details"',
        'detail: "${} engagements"',
        'text: "$(key) Replace key"',
        'webview text: "No records."',
        'aria-label: "Usage by key"',
        'returned by src/core: "A type is required."',
      ],
    );
  });

  it('every l10n.t message is a literal, and is in l10n/bundle.l10n.json', () => {
    assert.ok(fs.existsSync(bundlePath), 'l10n/bundle.l10n.json is missing: npm run build writes it');
    const bundle = JSON.parse(fs.readFileSync(bundlePath, 'utf8')) as Record<string, unknown>;
    const { messages, notLiteral } = translationCalls(all);
    assert.deepEqual(notLiteral, [], 'l10n-dev extracts only literal messages: pass the values as {0} arguments');
    const missing = [...messages]
      .filter(([message]) => !(message in bundle))
      .map(([message, at]) => `${at} ${JSON.stringify(message)}`);
    assert.deepEqual(missing, [], 'messages the bundle lacks');
    assert.ok(messages.size > 300, `the sources hold ${messages.size} messages`);
    // The seam's messages are found too, not only those of vscode.l10n.t.
    for (const message of [
      'A name is required.',
      '{0} has no month {1}; months run from 01 to 12.',
      'unknown',
      '{0} evaluations',
      '(no status)',
    ])
      assert.ok(message in bundle, message);
  });

  it('the bundle on disk is the one the sources give (the build wrote it from these sources)', function () {
    this.timeout(60_000);
    execFileSync(process.execPath, [path.join(root, 'scripts', 'l10n.mjs'), '--check'], { cwd: root, stdio: 'pipe' });
  });

  it('package.json shows its texts through package.nls.json: every %key% exists there and every key is used', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      contributes: unknown;
      capabilities: unknown;
      l10n?: string;
    };
    const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    assert.equal(manifest.l10n, './l10n', 'package.json points VS Code at the bundles');
    const used = new Set<string>();
    const plain: string[] = [];
    const shown = new Set([
      'title',
      'shortTitle',
      'category',
      'name',
      'contextualTitle',
      'description',
      'markdownDescription',
      'contents',
      'label',
      'enumDescriptions',
      'markdownEnumDescriptions',
      'deprecationMessage',
      'markdownDeprecationMessage',
      'altText',
    ]);
    const walk = (value: unknown, at: string, isShown: boolean): void => {
      if (typeof value === 'string') {
        const key = /^%(.+)%$/.exec(value)?.[1];
        if (key) used.add(key);
        else if (isShown) plain.push(`${at}: ${value.slice(0, 60)}`);
      } else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${at}[${i}]`, isShown));
      else if (value && typeof value === 'object')
        for (const [name, item] of Object.entries(value)) {
          // A tool's name is its id, and its input schema is read by the model only (kept in English).
          if (at.includes('.languageModelTools[') && (name === 'name' || name === 'inputSchema')) continue;
          walk(item, `${at}.${name}`, shown.has(name));
        }
    };
    walk({ contributes: manifest.contributes, capabilities: manifest.capabilities }, 'package.json', false);
    assert.deepEqual(plain, [], 'texts of the manifest that do not come from package.nls.json');
    assert.deepEqual(
      [...used].filter((key) => !(key in nls)),
      [],
      'keys package.nls.json lacks',
    );
    assert.deepEqual(
      Object.keys(nls).filter((key) => !used.has(key) && !JSON.stringify(manifest).includes(`%${key}%`)),
      [],
      'keys nothing uses',
    );
  });
});
