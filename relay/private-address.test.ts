import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from './private-address';

/** The address as a URL's host writes it (the URL parser turns dotted IPv6 tails into hex). */
const host = (literal: string) => new URL(`http://[${literal}]/`).hostname;

describe('an IPv6 address that carries an IPv4 one', () => {
  it('is judged by the IPv4 address it carries: IPv4-compatible, NAT64 and 6to4 forms of private ones are refused', () => {
    for (const literal of [
      '::127.0.0.1', // IPv4-compatible loopback
      '::a9fe:a9fe', // IPv4-compatible 169.254.169.254 (cloud metadata)
      '64:ff9b::10.0.0.1', // NAT64
      '64:ff9b::7f00:1',
      '2002:a00:1::', // 6to4 of 10.0.0.1
      '2002:c0a8:101::1', // 6to4 of 192.168.1.1
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1 (::ffff:0:0/96), the form trial 14's relay probe got through
      '::ffff:0:127.0.0.1',
      '::ffff:0:a9fe:a9fe', // IPv4-translated cloud metadata
      '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
      '64:ff9b:1::7f00:1', // local-use NAT64 (64:ff9b:1::/48), whatever it carries
      '64:ff9b:1:5db8:d8:2200::',
    ])
      expect(isPrivateAddress(host(literal)), literal).toBe(true);
  });

  it('lets the same forms of public addresses through, and plain public IPv6', () => {
    for (const literal of [
      '64:ff9b::5db8:d822',
      '2002:5db8:d822::1',
      '2606:4700::1111',
      '::5db8:d822',
      '::ffff:0:5db8:d822', // IPv4-translated 93.184.216.34
    ])
      expect(isPrivateAddress(host(literal)), literal).toBe(false);
  });
});
