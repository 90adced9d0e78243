// swift-tools-version:6.0
// DeskPet: a desk-toy virtual pet. No Swift package dependencies: the toolchain plus three
// system C libraries (libsqlite3, libgpiod v1, libbluetooth) through pkg-config shims.
import PackageDescription

let package = Package(
    name: "DeskPet",
    products: [
        .executable(name: "deskpet-sim", targets: ["deskpet-sim"]),
        .executable(name: "deskpet-bench", targets: ["deskpet-bench"]),
        .executable(name: "deskpet", targets: ["deskpet"]),
        .executable(name: "deskpet-hwtest", targets: ["deskpet-hwtest"]),
        .executable(name: "deskpetctl", targets: ["deskpetctl"]),
        .executable(name: "deskpet-crashtest", targets: ["deskpet-crashtest"]),
    ],
    targets: [
        // System library shims.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        // Kernel interfaces Glibc's module lacks (epoll, evdev's struct input_event): headers only.
        .systemLibrary(name: "CLinux"),

        // Pure domain core: no I/O, no C, time injected.
        .target(name: "PetCore"),
        // SQLite event journal.
        .target(name: "PetStore", dependencies: ["CSQLite"]),
        // Pure renderer: state -> pixels.
        .target(name: "PetUI", dependencies: ["PetCore"]),
        // Linux hardware backends: spidev, i2c-dev, fbdev, GPIO and evdev buttons, buzzer, LEDs, sd_notify,
        // the BLE link (BLE/: mgmt socket, L2CAP ATT listener).
        .target(name: "PetLinux", dependencies: ["CGPIOD", "CBluetooth", "CLinux", "PetUI", "PetDevice", "PetLink"]),
        // The app: core + journal + UI wired together; gestures; zone database.
        .target(name: "PetDevice", dependencies: ["PetCore", "PetStore", "PetUI"]),
        // The phone link: SHA-256/HMAC, the framed JSON protocol, pairing, the service the device
        // loop serves, the TCP/Unix socket transports (docs/protocol.md), and the ATT codec and GATT
        // server the BLE transport runs (ATT/, GATT/; docs/ble.md).
        .target(name: "PetLink", dependencies: ["CLinux", "PetCore", "PetStore", "PetDevice"]),
        // The simulated board: virtual clock, headless display, scenario runner.
        .target(name: "PetSim", dependencies: ["PetCore", "PetStore", "PetUI", "PetDevice", "PetLink"]),

        .executableTarget(name: "deskpet-sim", dependencies: ["PetUI", "PetDevice", "PetSim", "PetLink"]),
        .executableTarget(name: "deskpet-bench", dependencies: ["PetCore", "PetStore", "PetUI", "PetDevice", "PetSim", "PetLink"]),
        // Tries buttons, buzzer and LED with the Linux backends; its guest-* commands are the
        // kernel-loop checks (tools/kernel-loop/guest-hardware.sh, guest-daemon.sh).
        // guest-frame decodes recorded SPI/I2C bytes with PetSim's panel emulators.
        .executableTarget(name: "deskpet-hwtest", dependencies: ["CLinux", "PetLinux", "PetLink", "PetCore", "PetStore", "PetDevice", "PetUI", "PetSim"]),
        // The phone stand-in: pairs, sends commands (an offline queue replayed on reconnect),
        // watches events, exports and charts stats (docs/deskpetctl.md); --ble through PetLinux's
        // L2CAP client socket.
        .executableTarget(name: "deskpetctl", dependencies: ["PetLink", "PetUI", "PetLinux"]),
        // The device daemon: deskpet run --board FILE --data DIR.
        .executableTarget(name: "deskpet", dependencies: ["CLinux", "PetCore", "PetStore", "PetUI", "PetDevice", "PetLinux", "PetLink"]),

        // The kill test's and the power-cut test's writer, retrying client and replay check
        // (tools/kill-test.sh, tools/kernel-loop/guest-power-cut.sh; docs/reliability.md).
        .executableTarget(name: "deskpet-crashtest", dependencies: ["CLinux", "PetCore", "PetStore", "PetUI", "PetDevice", "PetLink", "PetSim"]),

        // What every test target shares: running tools, a seeded generator, temp folders.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "PetCoreTests", dependencies: ["PetCore", "TestSupport"]),
        .testTarget(name: "PetStoreTests", dependencies: ["PetStore", "TestSupport"]),
        .testTarget(name: "PetUITests", dependencies: ["PetUI", "PetCore", "PetDevice", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "PetDeviceTests", dependencies: ["PetCore", "PetStore", "PetUI", "PetDevice", "TestSupport"]),
        .testTarget(name: "PetSimTests", dependencies: ["PetCore", "PetStore", "PetUI", "PetDevice", "PetSim", "TestSupport"]),
        .testTarget(name: "PetLinkTests", dependencies: ["PetLink", "PetCore", "PetStore", "PetDevice", "PetSim", "TestSupport"]),
        .testTarget(name: "PetLinuxTests", dependencies: ["PetLinux", "PetCore", "PetDevice", "PetUI", "CLinux", "PetLink", "PetSim", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
