import { clientAddressBucket } from './client-address.js';

describe('clientAddressBucket', () => {
  it('keeps an IPv4 address whole, and reads an IPv4-mapped IPv6 address as its IPv4', () => {
    expect(clientAddressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressBucket('203.0.113.8')).not.toBe(clientAddressBucket('203.0.113.7'));
  });

  it('puts every address of one IPv6 /64 in one bucket, and another /64 in another', () => {
    const one = clientAddressBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(one).toBe(clientAddressBucket('2001:db8:1:2::1'));
    expect(one).toBe(clientAddressBucket('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'));
    expect(one).not.toBe(clientAddressBucket('2001:db8:1:3::1'));
    expect(clientAddressBucket('::1')).toBe(clientAddressBucket('::2'));
  });

  it('leaves what is not an address as given', () => {
    expect(clientAddressBucket('unknown')).toBe('unknown');
  });
});
