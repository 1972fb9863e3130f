// The JSON Schema → grammar-schema translation, without a model: what node-llama-cpp is handed, and
// what is reported as not enforced. `node --test tests/local-llm/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toGrammarSchema } from './schema.mjs';

const strict = (properties) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });

test('the roles\' strict schemas translate with nothing left unenforced', () => {
  // The shapes core/src/llm/roles.rs sends: enums, nullable strings, arrays of strict objects,
  // a nullable array (page_vision's region).
  const { schema, unenforced, stricter } = toGrammarSchema(strict({
    label: { type: 'string', enum: ['entails', 'neutral', 'contradicts'] },
    confidence: { type: 'number' },
    unit: { type: ['string', 'null'] },
    cells: { type: 'array', items: strict({ table_index: { type: 'integer' }, value: { type: 'string' } }) },
    region: { type: ['array', 'null'], items: { type: 'number' } },
  }));
  assert.deepEqual(unenforced, []);
  assert.deepEqual(stricter, []);
  assert.deepEqual(schema.properties.label, { enum: ['entails', 'neutral', 'contradicts'] });
  assert.deepEqual(schema.properties.unit, { type: ['string', 'null'] });
  assert.equal(schema.additionalProperties, false);
  assert.deepEqual(schema.properties.cells.items.properties.table_index, { type: 'integer' });
});

test('a nullable array becomes an array-or-null alternative, not null only', () => {
  // node-llama-cpp takes a type list for scalars only and would generate nothing but `null` here.
  const { schema } = toGrammarSchema({ type: ['array', 'null'], items: { type: 'number' }, maxItems: 4 });
  assert.deepEqual(schema, { oneOf: [{ type: 'array', items: { type: 'number' }, maxItems: 4 }, { type: 'null' }] });
});

test('keywords the grammar cannot express are reported by path', () => {
  const { unenforced } = toGrammarSchema(strict({
    id: { type: 'string', pattern: '^claim-[0-9]+$' },
    score: { type: 'number', minimum: 0, maximum: 1 },
    mail: { type: 'string', format: 'email' },
    both: { allOf: [{ type: 'string' }, { maxLength: 3 }] },
    one: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  }));
  assert.deepEqual(unenforced.sort(), [
    '#/properties/both: allOf',
    '#/properties/id: pattern',
    '#/properties/mail: format "email"',
    '#/properties/one: oneOf (at least one alternative is enforced, not exactly one)',
    '#/properties/score: maximum',
    '#/properties/score: minimum',
    '#/properties/tags: uniqueItems',
  ]);
});

test('JSON Schema defaults are kept: extra properties allowed unless forbidden, optional properties noted', () => {
  const { schema, unenforced, stricter } = toGrammarSchema({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } }, required: ['a'] });
  assert.equal(schema.additionalProperties, true);
  assert.deepEqual(unenforced, []);
  assert.deepEqual(stricter, ['#: optional properties always generated (b)']);
});

test('an empty schema means any JSON value, and references keep working under either name', () => {
  const any = toGrammarSchema({}).schema;
  assert.ok(any.oneOf.some((s) => s.type === 'array') && any.oneOf.some((s) => s.type === 'object'), 'any value, not only null');
  const { schema, unenforced } = toGrammarSchema({ type: 'object', properties: { m: { $ref: '#/definitions/money' } }, required: ['m'], additionalProperties: false, definitions: { money: { type: 'number' } } });
  assert.deepEqual(schema.properties.m, { $ref: '#/$defs/money' });
  assert.deepEqual(schema.$defs, { money: { type: 'number' } });
  assert.deepEqual(unenforced, []);
});

test('anyOf is the grammar\'s own alternative; string limits on a type list are reported', () => {
  const { schema, unenforced } = toGrammarSchema({ anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] });
  assert.deepEqual(schema, { oneOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] });
  assert.deepEqual(unenforced, []);
  assert.deepEqual(toGrammarSchema({ type: ['string', 'null'], maxLength: 5 }).unenforced, ['#: maxLength']);
});
