// Every place the extension hands text to VS Code for a person to read (a sink) goes through
// the one sanitiser, src/core/text.ts (issue 27). This suite lists the sinks found in `src`
// (outside the webviews, which insert text as text): a sink added without being listed here
// fails, and each listed sink must show the sanitiser (or say why its text is fixed). The
// sanitisers' effect on hostile text is checked per kind of sink below; the integration suite
// `reliability-hostile-service` checks the ones only VS Code can show.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { escapeIcons, safeLabel, safeText, shortLabel } from '../../src/core/text';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SINK =
  /(?:window\.withProgress\(|setStatusBarMessage\(|show(?:Information|Warning|Error)Message\b|showQuickPick\(|showInputBox\(|createWebviewPanel\(|new vscode\.TreeItem\(|\b(?:item|qp|box|this\.item|this\.panel|this\.treeView)\.(?:text|tooltip|title|placeholder|prompt|description|message|validationMessage|label|items)\s*=(?!=))/g;

/** Text fixed by the extension: one l10n string with no argument, nothing else but an icon. */
const FIXED = /^[\w.]+ = (`\$\([a-z-]+\) \$\{)?vscode\.l10n\.t\('[^']*'\)\}?`?$|vscode\.l10n\.t\('Usage'\), vscode/;

/** What makes a sink safe: a RegExp found in its statement; a string (the variable's definition, say) in its file; several strings, each in the file. */
type Proof = RegExp | string | string[];

// Per file under src: [the sink's first characters, what makes it safe].

const SINKS: Record<string, Array<[string, Proof]>> = {
  'engagements/commandKit.ts': [['window.withProgress({ location: { viewId', 'log?.info(safeText(title))']],
  'engagements/details.ts': [
    ['createWebviewPanel( WebviewTypes.engagementDetails, this.title()', 'shortLabel(nameText(e), e.id, 40)'],
    ['this.panel.title = this.title()', 'shortLabel(nameText(e), e.id, 40)'],
  ],
  'engagements/goTo.ts': [
    ['qp.title = title', 'const title = safeText('],
    [
      'qp.placeholder = placeholder',
      "const placeholder = vscode.l10n.t('Type a name, ID, type, status or description')",
    ],
    [
      'qp.items = failure === undefined ? listed',
      [
        'label: escapeIcons(shortLabel(nameText(engagement)',
        'detail: escapeIcons(safeText(describeError(error, environment)))',
      ],
    ],
    [
      'qp.placeholder = failure',
      /^qp\.placeholder = failure \? vscode\.l10n\.t\('[^']*', snapshot\.items\.length\) : short \? stopMessage\(snapshot\) : placeholder$/,
    ],
    ['qp.title = progress', /title, formatCount\(progress.loaded\)/],
  ],
  'engagements/tree.ts': [
    ['new vscode.TreeItem(label)', /^new vscode\.TreeItem\(label\)$/],
    ['item.tooltip = tooltip', /^item\.tooltip = tooltip$/],
    ["item.tooltip = vscode.l10n.t('Load the next page.", FIXED],
    ['new vscode.TreeItem(name,', 'const name = shortLabel(nameText(engagement), engagement.id)'],
    ['item.description = options.pending', "look.kind === 'other' ? displayText(look.text)"],
    ['item.tooltip = engagementTooltip(engagement', 'tooltip.supportHtml = false'],
    ['new vscode.TreeItem(label,', "const label = shortLabel(name, vscode.l10n.t('(no name)'))"],
    ["item.description = vscode.l10n.t('pending · {0}'", /shortLabel\(type, ''\)/],
    ["item.tooltip = safeText( vscode.l10n.t( '“{0}” ({1})", /safeText\(/],
    ['new vscode.TreeItem(displayText(look', /displayText\(/],
    ['item.description = formatCount(group', /formatCount/],
    ["item.tooltip = safeText( by === 'status'", /safeText\(/],
  ],
  'engagements/view.ts': [
    ['this.treeView.description = description', 'const description = optionalSafe('],
    ['this.treeView.message = message', 'const message = optionalSafe('],
    ['window.withProgress({ location: { viewId: Views.engagements } }, () => finished', /finished\)$/],
  ],
  'environments/add.ts': [
    ['window.withProgress( { location: vscode.ProgressLocation.Notification', /title: safeText\(/],
  ],
  'environments/statusBar.ts': [
    ['this.item.text = `$(server-environment)', FIXED],
    ["this.item.tooltip = vscode.l10n.t('Engagement & Usage: add", FIXED],
    ['this.item.text = `${icon} ${safeLabel(label)}', /safeLabel\(label\)/],
    ['this.item.tooltip = tooltip', 'new vscode.MarkdownString(undefined, false)'],
  ],
  'ui/ui.ts': [
    ['setStatusBarMessage(shown', 'const shown = `$(check) ${safeLabel(text)}`'],
    ['box.title =', /safeText/],
    ['box.placeholder =', /safeText/],
    ['box.prompt =', /safeText/],
    ['box.validationMessage = { message: safeText', /safeText/],
    ['box.validationMessage = validate(value)', 'optional(step.validate?.(value), safeText)'],
    ['box.validationMessage = problem', 'optional(step.validate?.(value), safeText)'],
    ['qp.title =', /safeText/],
    ['qp.placeholder =', /safeText/],
    ['qp.items = base', 'const label = safeLabel(item.label)'],
    ['qp.items = [free, ...base]', 'label: safeLabel(step.freeEntry.label(typed))'],
    [
      'showErrorMessage',
      'show(safeText(text), { modal: options.modal ?? false, detail: optional(options.detail, safeText) }',
    ],
    ['showWarningMessage', 'show(safeText(text)'],
    ['showInformationMessage', 'show(safeText(text)'],
    ['showQuickPick(items,', /title: safeText\(step.title\), placeHolder: optional\(step.placeholder, safeText\)/],
  ],
  'usage/panel.ts': [
    ['createWebviewPanel( WebviewTypes.usageDashboard, safeText(', /safeText\(/],
    ['this.panel.title = safeText(', /safeText\(/],
  ],
  'testing/usage.ts': [["createWebviewPanel( WebviewTypes.usageDashboard, vscode.l10n.t('Usage')", FIXED]],
  'usage/callsStatusBar.ts': [
    ['this.item.tooltip = safeText(this.tooltipText)', /safeText\(/],
    ["this.item.text = `${icon} ${vscode.l10n.t('calls {0}', percent)}`", /percent/],
  ],
};

const LISTED = Object.entries(SINKS).flatMap(([file, sinks]) =>
  sinks.map(([start, proof]) => ({ file, start, proof })),
);

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? e.name === 'webview'
          ? []
          : sources(path.join(dir, e.name))
        : e.name.endsWith('.ts')
          ? [path.join(dir, e.name)]
          : [],
    );
}

/** Every sink in `src`: its file, its statement (white space made single spaces). */
function foundSinks(): Array<{ file: string; statement: string; text: string }> {
  const src = path.join(ROOT, 'src');
  return sources(src).flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return Array.from(text.matchAll(SINK), (m) => {
      const end = text.indexOf(';\n', m.index);
      return {
        file: path.relative(src, file).split(path.sep).join('/'),
        statement: text.slice(m.index, end).replace(/\s+/g, ' '),
        text,
      };
    });
  });
}

const HOSTILE = '\u202Eevil $(bug) [open](command:workbench.action.terminal.new)\u0001\u200B\nnext';

/** The override, control and zero-width characters of HOSTILE still in `text`. */
const hidden = (text: string) => ['\u202E', '\u0001', '\u200B'].filter((c) => text.includes(c));

describe('Sinks: what VS Code shows goes through the one sanitiser (unit)', () => {
  it('lists every sink in src, and each one is sanitised or shows only the extension’s own text', () => {
    const found = foundSinks();
    const unlisted = found.filter(
      (f) => !LISTED.some(({ file, start }) => file === f.file && f.statement.startsWith(start)),
    );
    assert.deepEqual(
      unlisted.map((f) => `${f.file}: ${f.statement.slice(0, 80)}`),
      [],
      'a new sink: make it safe (src/core/text.ts) and list it here',
    );
    for (const { file, start, proof } of LISTED) {
      const sites = found.filter((f) => f.file === file && f.statement.startsWith(start));
      assert.ok(sites.length > 0, `${file}: ${start} is listed but no longer in the code`);
      for (const site of sites) {
        const shown =
          typeof proof === 'string'
            ? site.text.includes(proof)
            : Array.isArray(proof)
              ? proof.every((p) => site.text.includes(p))
              : proof.test(site.statement);
        assert.ok(shown, `${file}: ${site.statement.slice(0, 100)} is not shown to be safe by ${String(proof)}`);
      }
    }
    assert.equal(found.length >= LISTED.length, true);
  });

  it('messages, dialogs, progress titles, tooltips, tab titles and view messages: no link, no control or override', () => {
    const shown = safeText(HOSTILE);
    assert.doesNotMatch(shown, /\]\(/, 'a Markdown link cannot form');
    assert.deepEqual(hidden(shown), [], 'no override, control or zero-width character');
    assert.match(shown, /evil \$\(bug\) \[open\] \(command:/, 'the rest shows as written');
    assert.equal(
      safeText('Checking the key with https://h.invalid/[x](command:workbench.action.terminal.new)…'),
      'Checking the key with https://h.invalid/[x] (command:workbench.action.terminal.new)…',
      'the key-check progress title with a workspace base URL',
    );
  });

  it('status bar text and notices, quick-pick items: one line, `$(…)` shows as written', () => {
    const shown = safeLabel(HOSTILE);
    assert.equal(shown.includes('\n'), false);
    assert.match(shown, /evil \\\$\(bug\)/, 'escaped, so no icon is drawn');
    assert.deepEqual(hidden(shown), []);
    assert.doesNotMatch(shown, /\]\(/);
    assert.equal(safeLabel('a \\$(bug)'), 'a \\$(bug)', 'an already escaped icon is not escaped twice');
  });

  it('tree labels and Go to Engagement items: one line, no override, `$(…)` escaped where icons render', () => {
    const label = shortLabel(HOSTILE, 'id');
    assert.equal(label.includes('\n'), false);
    assert.equal(label.includes('\u202E'), false);
    assert.match(escapeIcons(label), /\\\$\(bug\)/);
    assert.equal(shortLabel('\u202E\u200B', 'eng_1'), 'eng_1', 'nothing visible: the id is shown');
  });
});
