// PetDevice re-exports PetIO (the file writer, errno text, strict JSON) so every `import PetDevice`
// sees them as before; the phone client imports PetIO alone.
@_exported import PetIO
