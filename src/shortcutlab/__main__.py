from shortcutlab.cli.app import main

main()
