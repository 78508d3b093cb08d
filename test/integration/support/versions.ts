// Which integration tests run on which VS Code. The suite runs whole on the oldest VS Code the
// manifest accepts (run-integration.mjs --vscode oldest); on the newest it runs the roads that
// differ there: what VS Code itself does between the extension and the person or the service
// (loading and activating it, its `fetch` and proxy agent, TLS, SecretStorage, the chat tools
// API, URL handling, workspace trust). What the extension decides on its own (its tree, its
// messages, its store) takes the same road on both and is tested once, on the oldest.
// Both lists are checked when the suite loads: a name or a pattern that matches nothing stops
// the run, so a renamed file or test cannot drop out silently.

/** The suite runs on the newest VS Code (`EUS_VSCODE`, set by run-integration.mjs). */
export const onNewest = process.env.EUS_VSCODE === 'newest';

interface OnNewest {
  /** What differs there. */
  why: string;
  /** Only the tests whose full title matches one of these (every test of the file without it). */
  only?: RegExp[];
}

/** Test files that run on the newest VS Code too. */
const NEWEST: Record<string, OnNewest> = {
  'activation.test.ts': { why: 'the extension host loads and activates the bundle' },
  'https-ca.test.ts': { why: "TLS through VS Code's fetch and its system certificates" },
  'https-proxy.test.ts': { why: "VS Code's proxy agent (1.139 keeps its connections, 1.100 does not)" },
  'readings.test.ts': { why: "the readings whose answers take another road through VS Code's fetch" },
  'reliability-faults-engagements.test.ts': {
    why: "the faults whose road through fetch differs (support/reliabilityFaults.ts's NEWEST_FAULTS)",
  },
  'reliability-faults-usage.test.ts': {
    why: 'the same faults while the export reads page after page on a kept connection',
    only: [/exporting the records/],
  },
  'error-bodies.test.ts': { why: "an HTML error page through VS Code's fetch" },
  'reliability-hostile-user.test.ts': {
    why: "redirects, which VS Code's fetch follows or hands back",
    only: [/a base URL that redirects elsewhere/, /redirect to another host/],
  },
  'reliability-secrets.test.ts': { why: 'SecretStorage' },
  'chat-tools.test.ts': { why: 'the language model tools API and its confirmations' },
  'chat-links.test.ts': { why: 'URL handling (vscode:// links)' },
  'performance.test.ts': {
    why: 'activation reads nothing; the connections each road opens',
    only: [/makes no request when it activates/, /counting requests, new connections/],
  },
  'at-home.test.ts': {
    why: "the extension's kind as the host reads it; the User-Agent VS Code's fetch sends",
    only: [/declares the UI side first/, /carries a User-Agent/],
  },
  'restricted-mode.restricted.test.ts': { why: 'Restricted Mode (workspace trust)' },
  'chat-tools.restricted.test.ts': { why: 'the chat tools in Restricted Mode' },
};

/** Whether the suite on this VS Code loads `file` (a name in test/integration/). */
export function runsHere(file: string): boolean {
  return !onNewest || file in NEWEST;
}

/** Files NEWEST names that are not in test/integration/. */
export function unknownFiles(files: readonly string[]): string[] {
  return Object.keys(NEWEST).filter((f) => !files.includes(f));
}

/**
 * On the newest VS Code, removes from the loaded suite the tests of each file that NEWEST
 * limits to some titles; `fileOf` names a test's file. Returns the patterns of the files
 * loaded here (the Restricted Mode bundle loads others) that matched no test, to stop the
 * run; none on the oldest.
 */
export function keepNewestOnly(root: Mocha.Suite, fileOf: (test: Mocha.Test) => string): string[] {
  if (!onNewest) return [];
  const matched = new Set<RegExp>();
  const loaded = new Set<string>();
  const visit = (suite: Mocha.Suite) => {
    suite.tests = suite.tests.filter((test) => {
      loaded.add(fileOf(test));
      const only = NEWEST[fileOf(test)]?.only;
      if (!only) return true;
      const hit = only.find((pattern) => pattern.test(test.fullTitle()));
      if (hit) matched.add(hit);
      return hit !== undefined;
    });
    suite.suites.forEach(visit);
  };
  visit(root);
  return Object.entries(NEWEST)
    .filter(([file]) => loaded.has(file))
    .flatMap(([file, { only }]) => (only ?? []).filter((p) => !matched.has(p)).map((p) => `${file}: ${p}`));
}
