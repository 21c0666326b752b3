import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A zodResolver whose schema (and zod itself) loads on the first validation instead of with the
 * page: the sign-in page stays small, and the rules and messages are still the shared ones.
 */
export function lazyZodResolver<T extends FieldValues>(load: () => Promise<z.ZodType<T>>): Resolver<T> {
  let ready: Promise<Resolver<T>> | undefined;
  return async (values, context, options) => {
    ready ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema as never) as unknown as Resolver<T>,
    );
    return (await ready)(values, context, options);
  };
}
