// swift-tools-version:6.0
// DeskPet: a desk-toy virtual pet. No Swift package dependencies: the toolchain plus three
// system C libraries (libsqlite3, libgpiod v1, libbluetooth) through pkg-config shims.
import PackageDescription

let package = Package(
    name: "DeskPet",
    products: [
        .executable(name: "deskpet-sim", targets: ["deskpet-sim"]),
        .executable(name: "deskpet-bench", targets: ["deskpet-bench"]),
    ],
    targets: [
        // System library shims.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),

        // Pure domain core: no I/O, no C, time injected.
        .target(name: "PetCore"),
        // SQLite event journal.
        .target(name: "PetStore", dependencies: ["CSQLite"]),
        // Pure renderer: state -> pixels.
        .target(name: "PetUI", dependencies: ["PetCore"]),
        // Linux hardware backends (grows with the hardware issues): spidev, i2c-dev, fbdev, GPIO, BLE.
        .target(name: "PetLinux", dependencies: ["CGPIOD", "CBluetooth", "PetDevice"]),
        // The app: core + journal + UI wired together; gestures; zone database.
        .target(name: "PetDevice", dependencies: ["PetCore", "PetStore", "PetUI"]),
        // The simulated board: virtual clock, headless display, scenario runner.
        .target(name: "PetSim", dependencies: ["PetDevice"]),

        .executableTarget(name: "deskpet-sim", dependencies: ["PetSim"]),
        .executableTarget(name: "deskpet-bench", dependencies: ["PetSim"]),

        .testTarget(name: "PetCoreTests", dependencies: ["PetCore"]),
        .testTarget(name: "PetStoreTests", dependencies: ["PetStore"]),
        .testTarget(name: "PetUITests", dependencies: ["PetUI", "PetCore"], exclude: ["Golden"]),
        .testTarget(name: "PetDeviceTests", dependencies: ["PetDevice"]),
        .testTarget(name: "PetSimTests", dependencies: ["PetSim"]),
        .testTarget(name: "PetLinuxTests", dependencies: ["PetLinux", "PetDevice", "PetUI"]),
    ],
    swiftLanguageModes: [.v6]
)
