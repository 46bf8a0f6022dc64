s = "Our Annual Office Picnic is on Saturday at Elm Park; Everyone is Invited!"
# wrong: capitals are not counted
print("Vowels:", sum(c in "aeiou" for c in s))
