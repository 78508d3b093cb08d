// The cost of redacting the key from a service's answer (the client redacts every body before
// reading it): a 10,000-engagement list body, compact as the reference service sends it and
// pretty-printed (a line break and indent between every value), without the key and with it
// echoed, split by invisible characters, in some names. Prints JSON; asserts nothing.
// Run: node esbuild.mjs --tests && node out/test/bench/redact.js
import { redact, redactKey } from '../../src/api/redact';
import { createRng, DEMO_KEYS, generateEngagements } from '../service/seed';

function time(run: () => string): { ms: number; out: string } {
  run(); // the pattern built and the code warm
  const rounds = 10;
  let out = '';
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) out = run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6 / rounds, out };
}

const key = DEMO_KEYS.admin.key;
const engagements = generateEngagements(createRng(7), 10_000, new Date('2026-11-01T00:00:00Z'));
const page = (items: unknown[]) => ({ data: items, page: 1, pageSize: 10_000, totalCount: items.length });
const echoed = engagements.map((e, i) =>
  i % 1000 === 0 ? { ...e, name: `${key.slice(0, 5)}\u2060${key.slice(5)}`, description: `Bearer ${key}` } : e,
);
const bodies: Record<string, string> = {
  compact: JSON.stringify(page(engagements)),
  pretty: JSON.stringify(page(engagements), null, 2),
  'compact, key in 10 records': JSON.stringify(page(echoed)),
};
const rows = Object.entries(bodies).map(([body, text]) => {
  const client = time(() => redactKey(text, key));
  const log = time(() => redact(text, key));
  return {
    body,
    mb: +(text.length / 2 ** 20).toFixed(2),
    redactKeyMs: +client.ms.toFixed(1),
    redactMs: +log.ms.toFixed(1),
    redactions: client.out.split('[redacted]').length - 1,
  };
});
console.log(JSON.stringify({ kind: 'redact', key: `${key.length} characters`, rows }, null, 2));
