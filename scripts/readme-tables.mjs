// Prints the README's command and setting tables from package.json (paste them into README.md;
// test/unit/readme.test.ts fails when the two drift apart).
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const nls = JSON.parse(fs.readFileSync('package.nls.json', 'utf8'));
const t = (v) => (typeof v === 'string' ? v.replace(/^%(.+)%$/, (_, k) => nls[k] ?? v) : v);

console.log('| Command | Id |\n| --- | --- |');
for (const c of pkg.contributes.commands) console.log(`| ${t(c.category)}: ${t(c.title)} | \`${c.command}\` |`);
console.log('\n| Setting | Default | Description |\n| --- | --- | --- |');
for (const [key, spec] of Object.entries(pkg.contributes.configuration.properties)) {
  const description = t(spec.markdownDescription ?? spec.description ?? '')
    .replace(/\n/g, ' ')
    .replace(/\|/g, '\\|');
  console.log(`| \`${key}\` | \`${JSON.stringify(spec.default)}\` | ${description} |`);
}
