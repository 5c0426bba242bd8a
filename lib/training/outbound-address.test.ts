import { describe, expect, it } from 'vitest';
import { checkOutboundAddress, classifyAddress, embeddedIpv4, parseAllowList } from './outbound-address';

/** The host a URL names, as the WHATWG URL parser (and so fetch and node:http) reads it. */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '');

describe('outbound address classes', () => {
  it('finds the metadata service in every spelling an attacker tried', () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://2852039166/', // decimal
      'http://0xa9fea9fe/', // hex
      'http://0251.0376.0251.0376/', // octal
      'http://[::ffff:169.254.169.254]/', // IPv4-mapped IPv6
      'http://[::ffff:a9fe:a9fe]/',
      'http://[64:ff9b::a9fe:a9fe]/', // NAT64
    ])
      expect(classifyAddress(hostOf(url)), url).toBe('metadata');
    expect(classifyAddress('fd00:ec2::254')).toBe('metadata');
  });
  it('classes loopback, private, link-local, shared, unspecified and multicast ranges; public stays public', () => {
    expect(classifyAddress(hostOf('http://127.0.0.1:54329/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://2130706433/'))).toBe('loopback'); // 127.0.0.1 in decimal
    expect(classifyAddress('127.9.9.9')).toBe('loopback');
    expect(classifyAddress('::1')).toBe('loopback');
    expect(classifyAddress(hostOf('http://[::ffff:127.0.0.1]/'))).toBe('loopback');
    expect(classifyAddress('10.1.2.3')).toBe('private');
    expect(classifyAddress('172.20.0.1')).toBe('private');
    expect(classifyAddress('172.32.0.1')).toBe('public');
    expect(classifyAddress('192.168.1.1')).toBe('private');
    expect(classifyAddress('fd12:3456::1')).toBe('private');
    expect(classifyAddress('169.254.1.1')).toBe('link-local');
    expect(classifyAddress('fe80::1')).toBe('link-local');
    expect(classifyAddress('100.64.0.1')).toBe('shared');
    expect(classifyAddress('0.0.0.0')).toBe('unspecified');
    expect(classifyAddress('::')).toBe('unspecified');
    expect(classifyAddress('224.0.0.1')).toBe('multicast');
    expect(classifyAddress('8.8.8.8')).toBe('public');
    expect(classifyAddress('2606:4700::1111')).toBe('public');
  });
  it('reads the IPv4 address inside IPv6 forms', () => {
    expect(embeddedIpv4('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(embeddedIpv4('::ffff:a00:1')).toBe('10.0.0.1');
    expect(embeddedIpv4('2002:a00:1::')).toBe('10.0.0.1'); // 6to4
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
    expect(embeddedIpv4('::1')).toBeNull();
  });
});

describe('the allow-list', () => {
  it('lets a named host, address or range through, on its port when one is given', () => {
    const allow = parseAllowList('localhost:8787, 10.0.0.0/8, [::1]:9000, 192.168.1.5');
    expect(checkOutboundAddress('localhost', 8787, '127.0.0.1', allow)).toBeNull();
    expect(checkOutboundAddress('localhost', 54329, '127.0.0.1', allow)).toMatch(/loopback address/);
    expect(checkOutboundAddress('trainer.internal', 443, '10.4.5.6', allow)).toBeNull();
    expect(checkOutboundAddress('[::1]', 9000, '::1', allow)).toBeNull();
    expect(checkOutboundAddress('192.168.1.5', 80, '192.168.1.5', allow)).toBeNull();
    expect(checkOutboundAddress('192.168.1.6', 80, '192.168.1.6', allow)).toMatch(/192\.168\.1\.6 is a private address/);
    // a public address needs no entry; the metadata service needs one like any other
    expect(checkOutboundAddress('trainer.example', 443, '93.184.216.34', [])).toBeNull();
    expect(checkOutboundAddress('2852039166', 80, '169.254.169.254', allow)).toMatch(/metadata address.*WITNESS_SINK_ALLOW/);
  });
  it('refuses an entry it cannot read', () => {
    expect(() => parseAllowList('a:b:c')).toThrow(/WITNESS_SINK_ALLOW: cannot read "a:b:c"/);
    expect(parseAllowList('')).toEqual([]);
  });
});
