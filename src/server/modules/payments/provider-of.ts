import type { AppDeps } from '../../app';
import { localProvider } from '../../payments/local';
import type { PaymentProvider } from '../../payments/provider';

const defaults = new WeakMap<AppDeps, PaymentProvider>();

/** The app's payment provider: the one passed in deps, else the built-in one (one per app). */
export function providerOf(deps: AppDeps): PaymentProvider {
  if (deps.payments) return deps.payments;
  let p = defaults.get(deps);
  if (!p) {
    p = localProvider(deps.db);
    defaults.set(deps, p);
  }
  return p;
}
