// Which integration tests run on which VS Code. The suite runs whole on the oldest VS Code the
// manifest accepts (run-integration.mjs --vscode oldest); on the newest it runs the roads that
// differ there: what VS Code itself does between the extension and the person or the service
// (loading and activating it, its `fetch` and proxy agent, TLS, SecretStorage, the chat tools
// API, URL handling, workspace trust). What the extension decides on its own (its tree, its
// messages, its store) takes the same road on both and is tested once, on the oldest.
// Both lists are checked when the suite loads: a name or a pattern that matches nothing stops
// the run, so a renamed file or test cannot drop out silently. A run may also be one shard of
// the files (run-integration.mjs --shard i/n: `npm test` runs the oldest's suite as two, side
// by side), the files dealt by the seconds each takes.

/** The suite runs on the newest VS Code (`EUS_VSCODE`, set by run-integration.mjs). */
export const onNewest = process.env.EUS_VSCODE === 'newest';

/** Test files that run on the newest VS Code too, and what differs there. */
const NEWEST: Record<string, string> = {
  'activation.test.ts': 'the extension host loads and activates the bundle',
  'https-ca.test.ts': "TLS through VS Code's fetch and its system certificates",
  'https-proxy.test.ts': "VS Code's proxy agent (1.139 keeps its connections, 1.100 does not)",
  'readings.test.ts': "the readings whose answers take another road through VS Code's fetch",
  'reliability-faults-engagements.test.ts':
    "the faults whose road through fetch differs (support/reliabilityFaults.ts's NEWEST_FAULTS)",
  'reliability-faults-usage.test.ts': 'the same faults while the export reads page after page on a kept connection',
  'error-bodies.test.ts': "an HTML error page through VS Code's fetch",
  'reliability-hostile-user.test.ts': "redirects, which VS Code's fetch follows or hands back",
  'reliability-secrets.test.ts': 'SecretStorage',
  'chat-tools.test.ts': 'the language model tools API and its confirmations',
  'chat-links.test.ts': 'URL handling (vscode:// links)',
  'mcp.test.ts': 'the MCP server definition provider API (1.101+): registered there, absent on 1.100',
  'performance.test.ts': 'activation reads nothing; the connections each road opens',
  'at-home.test.ts': "the extension's kind as the host reads it; the User-Agent VS Code's fetch sends",
  'restricted-mode.restricted.test.ts': 'Restricted Mode (workspace trust)',
  'chat-tools.restricted.test.ts': 'the chat tools in Restricted Mode',
};

/** Of the files above, those whose tests run on the newest only where their full title matches one of these. */
const NEWEST_ONLY: Record<string, RegExp[]> = {
  'reliability-faults-usage.test.ts': [/exporting the records/],
  'reliability-hostile-user.test.ts': [/a base URL that redirects elsewhere/, /redirect to another host/],
  'performance.test.ts': [/makes no request when it activates/, /counting requests, new connections/],
  'at-home.test.ts': [/declares the UI side first/, /carries a User-Agent/],
};

for (const file of Object.keys(NEWEST_ONLY))
  if (!(file in NEWEST)) throw new Error(`support/versions.ts: ${file} is in NEWEST_ONLY but not in NEWEST`);

/** `EUS_TEST_SHARD=i/n`: this run loads the files of shard i (from 1) of n; undefined: all. */
const shard = ((text) => {
  const match = /^(\d+)\/(\d+)$/.exec(text ?? '');
  if (!match) return undefined;
  const [index, count] = [Number(match[1]), Number(match[2])];
  if (count < 1 || index < 1 || index > count) throw new Error(`EUS_TEST_SHARD=${text}: expected i/n with 1 <= i <= n`);
  return { index, count };
})(process.env.EUS_TEST_SHARD);

/**
 * About the seconds each file takes on the oldest VS Code (the runner prints them after a
 * run), only to deal the files to shards of about the same length; a file not named counts 5.
 * The activation file goes to the first shard: it must run before anything activates the extension.
 */
const SECONDS: Record<string, number> = {
  'performance.test.ts': 71,
  'engagements-edit.test.ts': 70,
  'reliability-faults-engagements.test.ts': 51,
  'readings.test.ts': 16,
  'reliability-faults-usage.test.ts': 44,
  'https-ca.test.ts': 29,
  'reliability-load.test.ts': 28,
  'usage.test.ts': 27,
  'https-proxy.test.ts': 26,
  'engagements-find.test.ts': 25,
  'usage-trends.test.ts': 23,
  'chat-tools.test.ts': 17,
  'reliability-paging.test.ts': 14,
  'reliability-hostile-service.test.ts': 10,
  'chat-links.test.ts': 9,
  'trust.test.ts': 8,
};

/** The shard of each of `files`: the longest first, each to the shard with the fewest seconds so far. */
function deal(files: readonly string[], count: number): Map<string, number> {
  const totals = Array.from({ length: count }, () => 0);
  const dealt = new Map<string, number>();
  const seconds = (f: string) => SECONDS[f] ?? 5;
  for (const file of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
    const to = file === 'activation.test.ts' ? 0 : totals.indexOf(Math.min(...totals));
    totals[to] += seconds(file);
    dealt.set(file, to + 1);
  }
  return dealt;
}

/** Whether this run loads `file` (a name in test/integration/; `files`: all of them): its VS Code's list, then its shard. */
export function runsHere(file: string, files: readonly string[]): boolean {
  if (onNewest && !(file in NEWEST)) return false;
  return !shard || deal(files, shard.count).get(file) === shard.index;
}

/** Files NEWEST names that are not in test/integration/. */
export function unknownFiles(files: readonly string[]): string[] {
  return Object.keys(NEWEST).filter((f) => !files.includes(f));
}

/**
 * On the newest VS Code, removes from the loaded suite the tests of each file that NEWEST_ONLY
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
      const only = NEWEST_ONLY[fileOf(test)];
      if (!only) return true;
      const hit = only.find((pattern) => pattern.test(test.fullTitle()));
      if (hit) matched.add(hit);
      return hit !== undefined;
    });
    suite.suites.forEach(visit);
  };
  visit(root);
  return Object.entries(NEWEST_ONLY)
    .filter(([file]) => loaded.has(file))
    .flatMap(([file, only]) => only.filter((p) => !matched.has(p)).map((p) => `${file}: ${p}`));
}
