import net, { type LookupFunction } from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import type { ResolvedAddress, Target } from './target';

/** Opens the connection for one request: the seam tests use to prove nothing was dialled. */
export type Dialer = (target: Readonly<Target>) => Duplex;

/**
 * A lookup that answers only with the addresses already checked, so the name cannot resolve to
 * something else between the check and the connection (DNS rebinding). Node still picks among
 * them (IPv6 or IPv4 first) and TLS still verifies the certificate against the host name.
 */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (wanted.length === 0) {
      callback(Object.assign(new Error('no checked address of the wanted family'), { code: 'ENOTFOUND' }), '');
    } else if (options.all) {
      callback(null, [...wanted]);
    } else {
      callback(null, wanted[0].address, wanted[0].family);
    }
  };
}

export const dial: Dialer = (target) => {
  const lookup = pinnedLookup(target.addresses);
  const servername = net.isIP(target.host) ? undefined : target.host.replace(/\.$/, '');
  return target.secure
    ? tls.connect({ host: target.host, port: target.port, servername, lookup, ALPNProtocols: ['http/1.1'] })
    : net.connect({ host: target.host, port: target.port, lookup });
};
