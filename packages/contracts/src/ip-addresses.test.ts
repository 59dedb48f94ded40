import { describe, expect, it } from 'vitest';
import { addressScope } from './ip-addresses.ts';

describe('addressScope', () => {
  it('puts private, link-local, carrier-grade NAT, "this network" and unique-local addresses inside the private network', () => {
    for (const ip of ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', '0.0.0.0', '224.0.0.1', '[::]', 'fc00::1', 'fd12:3456::1', 'fe80::1%eth0', 'ff02::1']) {
      expect(addressScope(ip), ip).toBe('private');
    }
  });

  it('reads the IPv4 address inside IPv4-mapped, IPv4-compatible and NAT64 IPv6 forms', () => {
    expect(addressScope('::ffff:10.0.0.1')).toBe('private');
    expect(addressScope('[::ffff:a9fe:a9fe]')).toBe('private');
    expect(addressScope('64:ff9b::a00:1')).toBe('private');
    expect(addressScope('::ffff:7f00:1')).toBe('loopback');
    expect(addressScope('::ffff:8.8.8.8')).toBe('public');
  });

  it('keeps loopback apart, calls the rest public, and is null for what is not an IP address', () => {
    expect(addressScope('127.0.0.1')).toBe('loopback');
    expect(addressScope('[::1]')).toBe('loopback');
    for (const ip of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '203.0.113.7', '2001:db8::1', '1:2:3:4:5:6:7:8']) expect(addressScope(ip), ip).toBe('public');
    for (const text of ['example.org', '256.1.1.1', '1::2::3', '1:2:3:4:5:6:7:8:9', '10.0.0', '']) expect(addressScope(text), text).toBeNull();
  });

  it('judges what a URL parser makes of odd IPv4 spellings', () => {
    expect(addressScope(new URL('https://167772161/').hostname)).toBe('private');
    expect(addressScope(new URL('https://0x7f.1/').hostname)).toBe('loopback');
    expect(addressScope(new URL('https://[::ffff:10.0.0.1]/').hostname)).toBe('private');
  });
});
