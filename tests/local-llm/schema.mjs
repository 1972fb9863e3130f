// JSON Schema (as sent in OpenAI's `response_format: {type: "json_schema"}`) → the schema dialect
// node-llama-cpp turns into a GBNF grammar, plus the list of what that grammar cannot enforce.
//
// Why a translation at all: node-llama-cpp's grammar generator understands a subset of JSON Schema
// and falls back to `null` for anything it does not recognise (a `{"type": ["array", "null"]}`
// would only ever generate `null`, an empty schema `{}` likewise). Everything the generator can
// express is mapped onto it here; everything it cannot is reported by path, so the server logs
// which parts of an answer are not guaranteed by the grammar instead of dropping them silently.
// The client validates every answer anyway (core/src/llm/client.rs): the grammar makes a weak
// model's answers parse, it is not what makes the run fail-closed.

/** Keywords that describe a value but constrain nothing, or that the translation handles itself. */
const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/** Keywords the grammar generator enforces, per kind of schema (node-llama-cpp 3.21, gbnfJson/types.d.ts). */
const ENFORCED = {
  object: new Set(['type', 'properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties', '$defs']),
  array: new Set(['type', 'items', 'prefixItems', 'minItems', 'maxItems', '$defs']),
  string: new Set(['type', 'minLength', 'maxLength', 'format']),
  scalar: new Set(['type']),
};
const FORMATS = new Set(['date-time', 'time', 'date']);
const ANY_JSON = Object.freeze({ oneOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'object', additionalProperties: true }, { type: 'array' }] });

/**
 * Translate `schema`. Returns `{ schema, unenforced, stricter }`: the node-llama-cpp schema, the
 * list of `"<path>: <keyword>"` the grammar does not enforce (empty when it enforces all of it),
 * and where the grammar allows less than the schema does (optional properties are always written).
 * Never throws on a well-formed JSON value; a non-object schema is treated as JSON Schema's `true`
 * (any value) or `false` (reported: no grammar can generate nothing).
 */
export function toGrammarSchema(schema) {
  const unenforced = [];
  unenforced.stricter = [];
  const defs = schema && typeof schema === 'object' ? (schema.$defs ?? schema.definitions) : undefined;
  const out = translate(schema, '#', unenforced);
  if (defs && typeof defs === 'object' && out && typeof out === 'object' && !('$defs' in out)) {
    out.$defs = Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, translate(v, `#/$defs/${k}`, unenforced)]));
  }
  return { schema: out, unenforced: [...unenforced], stricter: unenforced.stricter };
}

function translate(s, path, unenforced) {
  if (s === true || s === undefined || (s && typeof s === 'object' && Object.keys(s).every((k) => ANNOTATIONS.has(k)))) return ANY_JSON;
  if (s === false || s === null || typeof s !== 'object' || Array.isArray(s)) {
    unenforced.push(`${path}: schema ${JSON.stringify(s)} (any value is allowed instead)`);
    return ANY_JSON;
  }
  const note = (kw) => unenforced.push(`${path}: ${kw}`);
  const extra = (allowed, skip = []) => {
    for (const k of Object.keys(s)) if (!allowed.has(k) && !ANNOTATIONS.has(k) && !skip.includes(k)) note(k);
  };
  if (typeof s.$ref === 'string') {
    // node-llama-cpp resolves `#/$defs/NAME` only; `#/definitions/NAME` is the same thing under its draft-7 name.
    const ref = s.$ref.replace(/^#\/definitions\//, '#/$defs/');
    if (!ref.startsWith('#/$defs/')) note(`$ref ${s.$ref} (only #/$defs/… references)`);
    extra(new Set(['$ref', '$defs', 'definitions']));
    return { $ref: ref };
  }
  if ('const' in s) {
    extra(new Set(['const', 'type']));
    return { const: s.const };
  }
  if (Array.isArray(s.enum)) {
    // An enum fixes the values; a `type` beside it can only agree with them or make the schema empty.
    extra(new Set(['enum', 'type']));
    if (s.enum.some((v) => v !== null && typeof v === 'object')) note('enum with object or array members');
    return { enum: s.enum.filter((v) => v === null || typeof v !== 'object') };
  }
  const alternatives = s.oneOf ?? s.anyOf;
  if (Array.isArray(alternatives)) {
    // The grammar accepts a value matching any alternative: that is `anyOf`; `oneOf`'s "exactly one"
    // is not a property a left-to-right grammar can check.
    if (s.oneOf) note('oneOf (at least one alternative is enforced, not exactly one)');
    if (s.oneOf && s.anyOf) note('anyOf beside oneOf');
    extra(new Set(['oneOf', 'anyOf']));
    return { oneOf: alternatives.map((a, i) => translate(a, `${path}/${s.oneOf ? 'oneOf' : 'anyOf'}/${i}`, unenforced)) };
  }
  if (Array.isArray(s.allOf)) {
    note('allOf');
    return ANY_JSON;
  }
  const types = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : inferTypes(s);
  if (types.length === 0) {
    extra(new Set(['type']));
    return ANY_JSON;
  }
  // node-llama-cpp accepts a list of types for scalars only; a list naming "object" or "array"
  // (`["array", "null"]`) becomes one alternative per type, each with the keywords for its kind.
  if (types.length > 1 && types.some((t) => t === 'object' || t === 'array')) {
    const scalars = types.filter((t) => t !== 'object' && t !== 'array');
    const seen = new Set();
    const alts = types
      .filter((t) => t === 'object' || t === 'array')
      .map((t) => single({ ...s, type: t }, t, path, unenforced, seen));
    if (scalars.length) alts.push(single({ ...s, type: scalars }, 'scalar', path, unenforced, seen));
    return { oneOf: alts };
  }
  return single(s, types.length === 1 ? kindOf(types[0]) : 'scalar', path, unenforced, new Set(), types);
}

function kindOf(t) {
  return t === 'object' || t === 'array' || t === 'string' ? t : 'scalar';
}

/** Without `type`, the keywords present say which kinds the schema constrains. */
function inferTypes(s) {
  if ('properties' in s || 'additionalProperties' in s) return ['object'];
  if ('items' in s || 'prefixItems' in s) return ['array'];
  return [];
}

/** One kind of value. `seen` keeps a keyword reported once when a type list is split. */
function single(s, kind, path, unenforced, seen, types = Array.isArray(s.type) ? s.type : [s.type]) {
  const note = (kw) => {
    if (!seen.has(kw)) unenforced.push(`${path}: ${kw}`);
    seen.add(kw);
  };
  const allowedHere = new Set([...ENFORCED[kind], ...Object.values(ENFORCED).flatMap((x) => [...x])]);
  for (const k of Object.keys(s)) {
    if (ANNOTATIONS.has(k) || k === 'definitions') continue;
    if (!allowedHere.has(k)) note(k);
  }
  if (kind === 'object') {
    const props = s.properties && typeof s.properties === 'object' ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    const optional = Object.keys(props).filter((k) => !required.has(k));
    // node-llama-cpp always writes every listed property; a property the schema leaves optional is
    // still generated (stricter than the schema, never looser), so this is a note, not a gap.
    if (optional.length) unenforced.stricter.push(`${path}: optional properties always generated (${optional.join(', ')})`);
    const out = {
      type: 'object',
      properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, translate(v, `${path}/properties/${k}`, unenforced)])),
      // JSON Schema allows extra properties unless told otherwise; node-llama-cpp's default is the
      // opposite, so an absent `additionalProperties` is spelled out.
      additionalProperties: s.additionalProperties === undefined || s.additionalProperties === true
        ? true
        : s.additionalProperties === false ? false : translate(s.additionalProperties, `${path}/additionalProperties`, unenforced),
    };
    if (Number.isInteger(s.minProperties)) out.minProperties = s.minProperties;
    if (Number.isInteger(s.maxProperties)) out.maxProperties = s.maxProperties;
    return out;
  }
  if (kind === 'array') {
    const out = { type: 'array' };
    if (s.items !== undefined) out.items = translate(s.items, `${path}/items`, unenforced);
    if (Array.isArray(s.prefixItems)) out.prefixItems = s.prefixItems.map((p, i) => translate(p, `${path}/prefixItems/${i}`, unenforced));
    if (Number.isInteger(s.minItems)) out.minItems = s.minItems;
    if (Number.isInteger(s.maxItems)) out.maxItems = s.maxItems;
    return out;
  }
  if (kind === 'string') {
    if (typeof s.format === 'string' && FORMATS.has(s.format)) {
      if ('minLength' in s || 'maxLength' in s) note('minLength/maxLength beside format');
      return { type: 'string', format: s.format };
    }
    if ('format' in s) note(`format ${JSON.stringify(s.format)}`);
    const out = { type: 'string' };
    if (Number.isInteger(s.minLength)) out.minLength = s.minLength;
    if (Number.isInteger(s.maxLength)) out.maxLength = s.maxLength;
    return out;
  }
  // Scalars, or a list of scalar types: the grammar enforces the types only, so string limits
  // beside a list that includes "string" are not enforced.
  const known = types.filter((t) => ['string', 'number', 'integer', 'boolean', 'null'].includes(t));
  for (const t of types) if (!known.includes(t)) note(`type ${JSON.stringify(t)}`);
  if (known.includes('string')) for (const k of ['minLength', 'maxLength', 'format']) if (k in s) note(k);
  if (known.length === 0) return ANY_JSON;
  return { type: known.length === 1 ? known[0] : known };
}
