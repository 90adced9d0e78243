print("deskpet-bench: not yet")
