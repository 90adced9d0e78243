// PetLink (the device side of the phone link) re-exports PetWire (the protocol codec, crypto, client,
// ATT/GATT and WebSocket codecs) so every `import PetLink` sees them as before.
@_exported import PetWire
