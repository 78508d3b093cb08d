import assert from 'node:assert/strict';
import { csvField, toCsv, toJsonExport } from '../../src/core/records';

/** A small RFC 4180 reader, to prove the output reads back to the same values. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  return rows;
}

describe('usage: CSV and JSON export', () => {
  /** Each value and the CSV field written for it. */
  const expectFields = (cases: Array<[unknown, string]>) => {
    for (const [value, field] of cases) assert.equal(csvField(value), field, JSON.stringify(value));
  };

  it('quotes fields with commas, quotes and line breaks', () => {
    expectFields([
      ['plain', 'plain'],
      ['a,b', '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ['two\nlines', '"two\nlines"'],
      ['cr\rhere', '"cr\rhere"'],
      [' padded ', '" padded "'],
    ]);
  });

  it('defuses formula-leading text (= + - @ tab CR) with a leading apostrophe', () => {
    expectFields([
      ['=HYPERLINK("http://evil","x")', '"\'=HYPERLINK(""http://evil"",""x"")"'],
      ['+1+1', "'+1+1"],
      ['-2+3', "'-2+3"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tcmd', "'\tcmd"],
      ['\rcmd', '"\'\rcmd"'],
      // Numbers are numbers, not formulas.
      [-5, '-5'],
      [7.35, '7.35'],
    ]);
  });

  it('writes empty fields for missing values and JSON for nested ones', () => {
    expectFields([
      [undefined, ''],
      [null, ''],
      [Number.NaN, ''],
      [true, 'true'],
      [{ region: 'eu', sdk: 'node' }, '"{""region"":""eu"",""sdk"":""node""}"'],
    ]);
  });

  it('writes a header of every field and one CRLF line per record, reading back the same', () => {
    const records = [
      { id: 'req_1', endpoint: '/v1/engagements', note: 'a, b', meta: { region: 'eu' } },
      { id: 'req_2', statusCode: 429, note: '=1+1' },
    ];
    const csv = toCsv(records);
    assert.ok(csv.endsWith('\r\n'));
    const rows = parseCsv(csv);
    assert.deepEqual(rows[0], ['id', 'endpoint', 'note', 'meta', 'statusCode']);
    assert.deepEqual(rows[1], ['req_1', '/v1/engagements', 'a, b', '{"region":"eu"}', '']);
    assert.deepEqual(rows[2], ['req_2', '', "'=1+1", '', '429']);
    assert.equal(rows.length, 3);
    assert.equal(toCsv([], ['id']), 'id\r\n');
  });

  it('exports JSON with the records exactly as they came', () => {
    const records = [
      { id: 'r1', meta: { a: [1, 2] } },
      { id: 'r2', odd: null },
    ];
    const parsed = JSON.parse(
      toJsonExport(records, { billingPeriod: '2026-11', exportedAt: '2026-11-19T00:00:00.000Z' }),
    ) as Record<string, unknown>;
    assert.deepEqual(parsed, { billingPeriod: '2026-11', exportedAt: '2026-11-19T00:00:00.000Z', count: 2, records });
  });
});
