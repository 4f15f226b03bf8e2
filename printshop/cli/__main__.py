from printshop.cli import main

main()
