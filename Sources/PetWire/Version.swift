// The one place DeskPet's version is written. `deskpet --version`, `deskpetctl --version`,
// `deskpet-sim --version`, the link's hello (firmware) and the Debian package
// (tools/build-deb.sh reads this line) all take it from here.
public enum DeskPetVersion {
    public static let string = "0.1.0"
}
