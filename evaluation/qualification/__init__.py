"""Provider qualification: the shipped labelled data, run against the configured provider.

``manage.py qualify_provider formation|reconsolidation`` loads the data shipped
here into throwaway accounts, runs the deterministic arm and the provider-assisted
arm through the product's own services (requests shaped like live traffic: whole
sessions, the live egress rules), scores both against the labels (which never
leave the machine) and certifies the capability when the assisted arm is useful
and safe. The file it writes is signed with the installation's secret key, so
``certify`` recomputes its figures from observations this installation recorded.
"""
