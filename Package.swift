// swift-tools-version:6.0
// DeskPet: a desk-toy virtual pet. No Swift package dependencies: the toolchain plus three
// system C libraries (libsqlite3, libbluetooth, and libmosquitto for deskpet-bridge only) through pkg-config shims; GPIO uses the kernel's
// uAPI v2 through the CLinux header shim, no library (docs/architecture.md).
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
        .executable(name: "deskpet-bridge", targets: ["deskpet-bridge"]),
    ],
    targets: [
        // System library shims.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        // MQTT for deskpet-bridge (TLS, reconnects, QoS 1 in flight are the library's).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // Kernel interfaces Glibc's module lacks (epoll, evdev's struct input_event): headers only.
        .systemLibrary(name: "CLinux"),

        // Pure domain core: no I/O, no C, time injected.
        .target(name: "PetCore"),
        // SQLite event journal.
        .target(name: "PetStore", dependencies: ["CSQLite", "PetIO"]),
        // The PNG encoder (stdlib only): the UI's pictures and deskpetctl's stats charts.
        .target(name: "PetPNG"),
        // Pure renderer: state -> pixels. Re-exports PetPNG.
        .target(name: "PetUI", dependencies: ["PetCore", "PetPNG"]),
        // Small files written atomically, errno text, strict JSON: shared by the device and the
        // phone client (stdlib and Glibc only).
        .target(name: "PetIO"),
        // Every system call of the device: the hardware backends (spidev, i2c-dev, fbdev, GPIO and evdev
        // buttons, buzzer, LEDs, sd_notify), the system clock and poll(2) wait (Loop/), the socket
        // transports of the phone link on one socket helper (Sockets/, Link/: TCP, Unix, WebSocket),
        // the BLE link (BLE/: the L2CAP ATT listener; the mgmt socket is PetWire's BLE/).
        .target(name: "PetLinux", dependencies: ["CBluetooth", "CLinux", "PetUI", "PetDevice", "PetLink"]),
        // The app: core + journal + UI wired together; gestures; zone database. Re-exports PetIO.
        .target(name: "PetDevice", dependencies: ["PetCore", "PetStore", "PetUI", "PetIO"]),
        // The phone protocol as both ends speak it, linking nothing of the device: SHA-256/HMAC,
        // the framed JSON messages (docs/protocol.md), the client and its offline queue, the ATT
        // codec, GATT database, server session and client (docs/ble.md), the WebSocket codec, and
        // the Linux Bluetooth sockets both ends use (BLE/: the management socket and the Just Works
        // agent, bonding keys, the phone's L2CAP LE client socket for deskpetctl --ble).
        .target(name: "PetWire", dependencies: ["CLinux", "CBluetooth", "PetCore", "PetIO"]),
        // The device side of the phone link, no system calls: pairing, the service the device loop
        // serves and the GATT server session (its transports are PetLinux's). Re-exports PetWire.
        .target(name: "PetLink", dependencies: ["PetCore", "PetStore", "PetDevice", "PetWire"]),
        // The simulated board: virtual clock, headless display, scenario runner.
        .target(name: "PetSim", dependencies: ["PetCore", "PetStore", "PetUI", "PetDevice", "PetLink", "PetLinux"]),

        .executableTarget(name: "deskpet-sim", dependencies: ["PetUI", "PetDevice", "PetSim", "PetLink", "PetLinux"]),
        .executableTarget(name: "deskpet-bench", dependencies: ["PetCore", "PetStore", "PetUI", "PetDevice", "PetSim", "PetLink", "PetLinux"]),
        // Tries buttons, buzzer and LED with the Linux backends; its guest-* commands are the
        // kernel-loop checks (tools/kernel-loop/guest-hardware.sh, guest-daemon.sh).
        // guest-frame decodes recorded SPI/I2C bytes with PetSim's panel emulators.
        .executableTarget(name: "deskpet-hwtest", dependencies: ["CLinux", "PetLinux", "PetLink", "PetCore", "PetStore", "PetDevice", "PetUI", "PetSim"]),
        // The phone stand-in: pairs, sends commands (an offline queue replayed on reconnect),
        // watches events, exports and charts stats (docs/deskpetctl.md); --ble through
        // PetWire's L2CAP client socket. Links nothing of the device (no PetDevice, PetUI,
        // PetStore; Tests/PetLinkTests/ClientClosureTests.swift).
        .executableTarget(name: "deskpetctl", dependencies: ["PetCore", "PetIO", "PetPNG", "PetWire"]),
        // The device daemon: deskpet run --board FILE --data DIR.
        .executableTarget(name: "deskpet", dependencies: ["CLinux", "PetCore", "PetStore", "PetUI", "PetDevice", "PetLinux", "PetLink"]),

        // Home Assistant over MQTT as a paired client of the daemon (docs/home-assistant.md): the
        // testable logic (config, discovery, topics → commands, resume, rate limits) and the
        // libmosquitto driver; links nothing of the device (like deskpetctl).
        .target(name: "PetBridge", dependencies: ["CMosquitto", "PetCore", "PetIO", "PetPNG", "PetWire"]),
        .executableTarget(name: "deskpet-bridge", dependencies: ["PetBridge", "PetWire", "PetIO"]),

        // The kill test's and the power-cut test's writer, retrying client and replay check
        // (tools/kill-test.sh, tools/kernel-loop/guest-power-cut.sh; docs/reliability.md).
        .executableTarget(name: "deskpet-crashtest", dependencies: ["CLinux", "PetCore", "PetStore", "PetUI", "PetDevice", "PetLink", "PetLinux", "PetSim"]),

        // What every test target shares: running tools, a seeded generator, temp folders.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "PetCoreTests", dependencies: ["PetCore", "TestSupport"]),
        .testTarget(name: "PetStoreTests", dependencies: ["PetStore", "TestSupport"]),
        .testTarget(name: "PetUITests", dependencies: ["PetUI", "PetCore", "PetDevice", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "PetDeviceTests", dependencies: ["PetCore", "PetStore", "PetUI", "PetDevice", "TestSupport"]),
        .testTarget(name: "PetSimTests", dependencies: ["PetCore", "PetStore", "PetUI", "PetDevice", "PetSim", "PetLinux", "TestSupport"]),
        .testTarget(name: "PetLinkTests", dependencies: ["PetLink", "PetCore", "PetStore", "PetDevice", "PetSim", "PetLinux", "TestSupport"]),
        .testTarget(name: "PetBridgeTests", dependencies: ["PetBridge", "PetWire", "PetCore", "PetIO", "TestSupport"]),
        .testTarget(name: "PetLinuxTests", dependencies: ["PetLinux", "PetCore", "PetDevice", "PetUI", "CLinux", "PetLink", "PetSim", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
