import pg from 'pg';

/**
 * Hot statements go to PostgreSQL as named prepared statements: each pooled
 * connection parses a statement once and PostgreSQL may keep a generic plan,
 * instead of parsing and planning every call (docs/performance.md). Kysely's
 * driver sends `query(text, values)` without a name, so the connections of the
 * ORM's pool look the text up here and add the name; one name per text.
 */
const names = new Map<string, string>();

export function nameHotStatement(text: string, name: string): void {
  const known = names.get(text);
  if (known === name) return;
  if (known !== undefined) throw new Error(`Hot statement text named both ${known} and ${name}`);
  for (const [otherText, otherName] of names) {
    if (otherName === name && otherText !== text) throw new Error(`Hot statement name ${name} used for two texts`);
  }
  names.set(text, name);
}

/** The name a statement text is prepared under, if it is a hot statement. */
export function hotStatementName(text: string): string | undefined {
  return names.get(text);
}

/** pg's client, sending registered hot statements by name (the pool's `Client`, orm.ts). */
export class NamedStatementClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && args.length === 2) {
      const name = names.get(text);
      if (name !== undefined) return (super.query as (...a: unknown[]) => never)({ name, text, values });
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
