from printshop.launch import main

main()
