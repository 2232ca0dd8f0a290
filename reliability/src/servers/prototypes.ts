const WATCHED: Record<string, object> = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
  Number: Number.prototype,
  Boolean: Boolean.prototype,
  Promise: Promise.prototype,
  RegExp: RegExp.prototype,
};

function properties(proto: object): Map<PropertyKey, unknown> {
  return new Map(
    Reflect.ownKeys(proto).map((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      return [key, descriptor?.get ?? descriptor?.value];
    }),
  );
}

/**
 * Records the own properties of the built-in prototypes, and later lists every one added,
 * removed or replaced since: what prototype pollution leaves behind.
 */
export function snapshotPrototypes(): { changes(): string[] } {
  const before = new Map(Object.entries(WATCHED).map(([name, proto]) => [name, properties(proto)]));
  return {
    changes() {
      const found: string[] = [];
      for (const [name, proto] of Object.entries(WATCHED)) {
        const now = properties(proto);
        const start = before.get(name) ?? new Map<PropertyKey, unknown>();
        for (const [key, value] of now) {
          if (!start.has(key)) found.push(`${name}.prototype.${String(key)} added`);
          else if (start.get(key) !== value)
            found.push(`${name}.prototype.${String(key)} replaced`);
        }
        for (const key of start.keys()) {
          if (!now.has(key)) found.push(`${name}.prototype.${String(key)} removed`);
        }
      }
      return found;
    },
  };
}
