from opkg.cli import main

main()
