"""FIT protocol helpers for the fixture scripts (fit_fixtures.sh, course_fixtures.sh): files
written byte by byte as Garmin's FIT SDK docs ("FIT Protocol") describe them."""
import struct


def crc16(data):
    """FIT's CRC-16 (reflected 0xA001 polynomial, CRC-16/ARC)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def fit_file(records):
    """A FIT file: a 14-byte header (protocol 2.0, profile 21.32) with its CRC, the records, the file CRC."""
    body = b"".join(records)
    head = struct.pack("<BBHI4s", 14, 0x20, 2132, len(body), b".FIT")
    head += struct.pack("<H", crc16(head))
    data = head + body
    return data + struct.pack("<H", crc16(data))


def definition(local, num, fields, big=False, dev=None):
    """A definition message: local type, global message number, (number, size, base type)
    fields, byte order, optional developer fields."""
    h = 0x40 | local | (0x20 if dev else 0)
    rec = bytes([h, 0, 1 if big else 0]) + struct.pack(">H" if big else "<H", num) + bytes([len(fields)])
    rec += b"".join(bytes(f) for f in fields)
    if dev:
        rec += bytes([len(dev)]) + b"".join(bytes(f) for f in dev)
    return rec
